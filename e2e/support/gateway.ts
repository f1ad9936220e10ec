// The agent side of a browser spec, in-process: calls the gateway over HTTP as an agent would (a demo agent key
// and the end-user token of the tenant's first demo customer, like `npm run agent:demo`, which
// tests/integration/agent-demo.test.ts runs for real). No child process per proposal.
import { randomBytes } from "node:crypto";
import { expect } from "@playwright/test";
import { demoCredentials } from "../../scripts/lib/demo-data";

const port = Number(process.env.E2E_PORT ?? 3100);
export const baseURL = `http://localhost:${port}`;

type Content = { code: string; result?: Record<string, unknown>; error?: { message: string } };

/** One call of `tool` by the tenant's `web_support` agent for its first demo customer; the parsed content. */
export async function agentCall(tenantSlug: string, tool: string, input: Record<string, unknown>): Promise<Content> {
  const { call } = await agentSession(tenantSlug);
  return call(tool, input);
}

/** The tenant's `web_support` agent acting for its first demo customer on one fresh W3C trace. */
async function agentSession(tenantSlug: string) {
  const tenant = (await demoCredentials()).tenants.find((t) => t.slug === tenantSlug);
  const agent = tenant?.agents.find((a) => a.channel === "web_support");
  const customer = tenant?.customers[0];
  if (!agent || !customer) throw new Error(`no demo web_support agent or customer in ${tenantSlug}`);
  const headers = {
    "content-type": "application/json",
    authorization: `Bearer ${agent.key}`,
    "x-end-user-token": customer.endUserToken,
    traceparent: `00-${randomBytes(16).toString("hex")}-${randomBytes(8).toString("hex")}-01`,
    "x-agent-model": "e2e (scripted)",
    "x-agent-prompt-version": "e2e-1",
  };
  let n = 0;
  const call = async (name: string, input: Record<string, unknown>): Promise<Content> => {
    const res = await fetch(`${baseURL}/api/agent/tool-calls`, {
      method: "POST",
      headers,
      body: JSON.stringify({ type: "tool_use", id: `toolu_e2e_${++n}`, name, input }),
    });
    const text = await res.text();
    const body = (() => {
      try {
        return JSON.parse(text) as { content?: string };
      } catch {
        return {};
      }
    })();
    expect(body.content, `HTTP ${res.status}: ${text}`).toBeTruthy();
    return JSON.parse(body.content!) as Content;
  };
  return { call };
}

/**
 * The tenant's `web_support` agent, acting for the tenant's first demo customer on one W3C trace, prepares a
 * refund of `order` and returns the proposal id. With `conversation`, first the calls `agent:demo` makes before
 * (an invented tool, the order lookup, an amount the server refuses) and the status check after, so the trace
 * holds the whole conversation.
 */
export async function proposeRefund(
  tenantSlug: string,
  order: string,
  opts: { conversation?: boolean } = {},
): Promise<string> {
  const { call } = await agentSession(tenantSlug);
  if (opts.conversation) {
    expect((await call("search_invoices", { query: `order ${order}` })).code).toBe("unknown_tool");
    expect((await call("lookup_order", { order_id: order })).code).toBe("ok");
    await call("prepare_refund", { order_id: order, reason: "damaged_item", amount: 1 });
  }
  const prepared = await call("prepare_refund", { order_id: order, reason: "damaged_item" });
  expect(prepared.code, prepared.error?.message).toBe("approval_required");
  const id = String(prepared.result?.proposal_id);
  if (opts.conversation) await call("get_refund_status", { proposal_id: id });
  return id;
}
