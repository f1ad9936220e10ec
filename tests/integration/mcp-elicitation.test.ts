// MCP sessions and URL-mode elicitation through the official SDK client (docs/agent-api.md "MCP: asking the customer
// to confirm"): only a client that declares URL elicitation gets a session; its id is the key's alone and expires;
// a session's client is asked to open the customer's confirmation page (`elicitation/create`, mode url) when a
// prepare needs the customer, and a client that did not declare it is never sent one (the link is in the result).
import { describe, expect, it } from "vitest";
import { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, type ElicitRequest } from "@modelcontextprotocol/sdk/types.js";
import { POST as mcpPOST } from "@/app/api/mcp/route";
import { db } from "@/lib/server/db/client";
import { ES, US, communityKey, freshTrace, headersFor, webKey } from "./gateway-support";

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
