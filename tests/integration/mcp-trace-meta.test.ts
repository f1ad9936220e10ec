// MCP clients that send no trace headers carry the W3C trace context in `params._meta.traceparent`: it names
// the trace (so per-trace budgets bind for them, and the audit trail joins), and approval results link the
// review page as an MCP `resource_link`.
import { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { POST as mcpPOST } from "@/app/api/mcp/route";
import { mcpCallTrace } from "@/lib/server/telemetry/agent-trace";
import { db } from "@/lib/server/db/client";
import { ana, ES, headersFor, tokenFor } from "./gateway-support";
import { freshCardOrder } from "./proposal-support";

function connect(headers: Record<string, string>, traceHeaders: (string | null)[] = []) {
  const transport = new StreamableHTTPClientTransport(new URL("http://localhost/api/mcp"), {
    requestInit: { headers },
    fetch: async (url, init) => {
      const res = await mcpPOST(new Request(url, init));
      traceHeaders.push(res.headers.get("x-trace-id"));
      return res;
    },
  });
  return { client: new McpClient({ name: "mcp-trace-meta-test", version: "1.0.0" }), transport };
}

const traceparent = () => {
  const hex = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 16).toString(16)).join("");
  const traceId = hex(32);
  return { traceId, header: `00-${traceId}-${hex(16)}-01` };
};

type Result = {
  content: { type: string; text?: string; uri?: string }[];
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
};

describe("MCP params._meta.traceparent", () => {
  it("names the trace of a header-less client: the same trace across requests, so its budget binds", async () => {
    const token = await tokenFor(ES, ana);
    const seen: (string | null)[] = [];
    // No traceparent / X-Trace-Id header at all.
    const { client, transport } = connect(headersFor({ token }), seen);
    await client.connect(transport);
    const tp = traceparent();
    const codes: string[] = [];
    for (let i = 0; i < 6; i++) {
      const r = (await client.callTool({
        name: "lookup_order",
        arguments: { order_id: "ORD-1001" },
        _meta: { traceparent: tp.header },
      })) as Result;
      codes.push(String(r.structuredContent?.code));
      expect(r.structuredContent?.traceId).toBe(tp.traceId);
    }
    // The repeat budget is 5: the 6th identical call in the trace is refused.
    expect(codes).toEqual(["ok", "ok", "ok", "ok", "ok", "limit_exceeded"]);
    expect(seen.at(-1)).toBe(tp.traceId);
    const tenantId = (await db().tenant.findUniqueOrThrow({ where: { slug: ES } })).id;
    expect(await db().auditEvent.count({ where: { tenantId, traceId: tp.traceId } })).toBe(6);
    await client.close();
  });

  it("wins over the HTTP header; an invalid one falls back to the header", () => {
    const header = traceparent();
    const meta = traceparent();
    const fromHeader = { traceId: header.traceId, parent: null };
    expect(mcpCallTrace(fromHeader, { traceparent: meta.header }).traceId).toBe(meta.traceId);
    expect(mcpCallTrace(fromHeader, { traceparent: "00-zz" })).toBe(fromHeader);
    expect(mcpCallTrace(fromHeader, { traceparent: 42 })).toBe(fromHeader);
    expect(mcpCallTrace(fromHeader, null)).toBe(fromHeader);
    // The all-zero trace id is invalid in W3C trace context.
    expect(mcpCallTrace(fromHeader, { traceparent: `00-${"0".repeat(32)}-${"1".repeat(16)}-01` })).toBe(fromHeader);
  });

  it("an approval_required result carries a resource_link to the review page", async () => {
    const token = await tokenFor(ES, ana);
    const { client, transport } = connect(headersFor({ token }));
    await client.connect(transport);
    const { number } = await freshCardOrder(1_234, { prefix: "MCP" });
    const r = (await client.callTool({
      name: "prepare_refund",
      arguments: { order_id: number, reason: "damaged_item" },
    })) as Result;
    expect(r.structuredContent?.code).toBe("approval_required");
    const id = (r.structuredContent?.result as { proposal_id: string }).proposal_id;
    const link = r.content.find((c) => c.type === "resource_link");
    expect(link).toMatchObject({
      type: "resource_link",
      uri: expect.stringMatching(new RegExp(`/proposals/${id}$`)),
      mimeType: "text/html",
    });
    // Other results carry none.
    const other = (await client.callTool({ name: "lookup_order", arguments: { order_id: "ORD-1001" } })) as Result;
    expect(other.content.map((c) => c.type)).toEqual(["text"]);
    await client.close();
  });
});
