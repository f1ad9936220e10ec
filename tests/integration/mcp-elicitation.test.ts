// MCP sessions and URL-mode elicitation through the official SDK client (docs/agent-api.md "MCP: asking the customer
// to confirm"): only a client that declares URL elicitation gets a session; its id is the key's alone and expires;
// a session's client is asked to open the customer's confirmation page (`elicitation/create`, mode url) when a
// prepare needs the customer, and a client that did not declare it is never sent one (the link is in the result).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, type ElicitRequest } from "@modelcontextprotocol/sdk/types.js";
import { POST as mcpPOST } from "@/app/api/mcp/route";
import { db } from "@/lib/server/db/client";
import { allowAddressChangeTool, copyDemoOrder, startShopBehindEndpoint } from "../support/address-change-shop";
import { ES, US, ana, communityKey, freshTrace, headersFor, tokenFor, webKey } from "./gateway-support";

let stopShop: (() => Promise<void>) | undefined;
beforeAll(async () => {
  ({ stop: stopShop } = await startShopBehindEndpoint(ES));
  await allowAddressChangeTool([ES]);
});
afterAll(async () => {
  await stopShop?.();
});

const madrid = {
  name: "Ana García",
  line1: "Calle de Alcalá 50",
  line2: null,
  city: "Madrid",
  postal_code: "28014",
  region: null,
  country: "es",
};
type Structured = { code: string; result: Record<string, unknown> };

type Seen = { sessionIds: (string | null)[]; statuses: number[] };

async function connect(headers: Record<string, string>, opts: { urlElicitation: boolean }) {
  const seen: Seen = { sessionIds: [], statuses: [] };
  const transport = new StreamableHTTPClientTransport(new URL("http://localhost/api/mcp"), {
    requestInit: { headers },
    fetch: async (url, init) => {
      const res = await mcpPOST(new Request(url, init));
      seen.statuses.push(res.status);
      seen.sessionIds.push(res.headers.get("mcp-session-id"));
      return res;
    },
  });
  const client = new McpClient(
    { name: "mcp-elicitation-test", version: "1.0.0" },
    { capabilities: opts.urlElicitation ? { elicitation: { url: {} } } : {} },
  );
  const asked: ElicitRequest["params"][] = [];
  if (opts.urlElicitation)
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params);
      return { action: "accept" };
    });
  await client.connect(transport);
  return { client, transport, seen, asked };
}

/** A raw POST with a session id, as a client would send it. */
const rawList = (headers: Record<string, string>, sessionId: string) =>
  mcpPOST(
    new Request("http://localhost/api/mcp", {
      method: "POST",
      headers: {
        ...headers,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": sessionId,
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    }),
  );

describe("MCP sessions for URL elicitation", () => {
  it("a client that declares URL elicitation gets a session; one that does not stays sessionless", async () => {
    const plain = await connect(headersFor({ key: webKey(ES), trace: freshTrace() }), { urlElicitation: false });
    await plain.client.listTools();
    expect(plain.transport.sessionId).toBeUndefined();
    expect(plain.seen.sessionIds.every((id) => id === null)).toBe(true);
    await plain.client.close();

    const before = await db().mcpSession.count();
    const eliciting = await connect(headersFor({ key: webKey(ES), trace: freshTrace() }), { urlElicitation: true });
    const id = eliciting.transport.sessionId;
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await eliciting.client.listTools()).tools.length).toBeGreaterThan(0);
    expect(await db().mcpSession.count()).toBe(before + 1);
    // Only its hash is kept.
    expect(await db().mcpSession.count({ where: { idHash: id! } })).toBe(0);
    await eliciting.client.close();
  });

  it("a session id is the key's alone: another key, an unknown id or an expired session gets 404 and nothing runs", async () => {
    const owner = headersFor({ key: webKey(ES), trace: freshTrace() });
    const { client, transport } = await connect(owner, { urlElicitation: true });
    const id = transport.sessionId!;
    expect((await rawList(owner, id)).status).toBe(200);
    for (const other of [webKey(US), communityKey(ES)]) {
      const res = await rawList(headersFor({ key: other, trace: freshTrace() }), id);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ error: { code: -32001 } });
    }
    expect((await rawList(owner, "not-a-session")).status).toBe(404);
    await db().mcpSession.updateMany({
      where: { agentKey: { tenant: { slug: ES } } },
      data: { expiresAt: new Date(0) },
    });
    expect((await rawList(owner, id)).status).toBe(404);
    await client.close();
  });
});

describe("URL-mode elicitation of the customer's confirmation", () => {
  it("a session's client is asked to open the exact confirm link before the answer; a client without it only gets the link", async () => {
    const token = await tokenFor(ES, ana);
    const eliciting = await connect(headersFor({ key: webKey(ES), token, trace: freshTrace() }), {
      urlElicitation: true,
    });
    const number = await copyDemoOrder("ELI");
    const answer = await eliciting.client.callTool({
      name: "prepare_address_change",
      arguments: { order_id: number, new_address: madrid },
    });
    const structured = answer.structuredContent as Structured;
    expect(structured.code).toBe("approval_required");
    const confirmUrl = structured.result.confirm_url;
    expect(confirmUrl).toMatch(/\/confirm\/[A-Za-z0-9_-]+$/);
    // One elicitation/create, mode url, naming the proposal and carrying the very link of the answer.
    expect(eliciting.asked).toEqual([
      {
        mode: "url",
        elicitationId: structured.result.proposal_id,
        url: confirmUrl,
        message: expect.stringContaining("The customer must confirm"),
      },
    ]);
    await eliciting.client.close();

    const plain = await connect(headersFor({ key: webKey(ES), token, trace: freshTrace() }), { urlElicitation: false });
    let elicited = 0;
    plain.client.fallbackRequestHandler = async (request) => {
      if (request.method === "elicitation/create") elicited++;
      return {};
    };
    const other = await plain.client.callTool({
      name: "prepare_address_change",
      arguments: { order_id: await copyDemoOrder("ELI"), new_address: madrid },
    });
    expect((other.structuredContent as Structured).result.confirm_url).toMatch(/\/confirm\//);
    expect(elicited).toBe(0);
    expect(plain.seen.sessionIds.every((id) => id === null)).toBe(true);
    await plain.client.close();
  });
});
