// The same call through the Anthropic, OpenAI and MCP shapes gives the same code and the same proposal.
import { describe, expect, it } from "vitest";
import { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { POST as mcpPOST } from "@/app/api/mcp/route";
import { db } from "@/lib/server/db/client";
import {
  ana,
  anthropicCall,
  communityKey,
  ES,
  freshTrace,
  headersFor,
  openaiCall,
  send,
  tokenFor,
  webKey,
} from "./gateway-support";

async function mcpClient(headers: Record<string, string>) {
  const transport = new StreamableHTTPClientTransport(new URL("http://localhost/api/mcp"), {
    requestInit: { headers },
    fetch: async (url, init) => mcpPOST(new Request(url, init)),
  });
  const client = new McpClient({ name: "gateway-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

type McpText = { content: { type: string; text: string }[]; isError?: boolean };
const mcpContent = (r: unknown) =>
  JSON.parse((r as McpText).content[0]!.text) as {
    code: string;
    result?: Record<string, unknown>;
    error?: Record<string, unknown>;
    traceId: string;
  };

describe("three transports, one behaviour", () => {
  it("prepare_refund via Anthropic, OpenAI and MCP → same code, same proposal", async () => {
    const token = await tokenFor(ES, ana);
    const a = await send(
      anthropicCall("prepare_refund", { order_id: "ORD-1001", reason: "damaged_item" }),
      headersFor({ token, trace: freshTrace() }),
    );
    const o = await send(
      openaiCall("prepare_refund", { order_id: "ORD-1001", reason: "damaged_item" }),
      headersFor({ token, trace: freshTrace() }),
    );
    const client = await mcpClient({ ...headersFor({ token, trace: freshTrace() }) });
    const m = await client.callTool({
      name: "prepare_refund",
      arguments: { order_id: "ORD-1001", reason: "damaged_item" },
    });
    await client.close();
    const mc = mcpContent(m);
    expect([a.content.code, o.content.code, mc.code]).toEqual([
      "approval_required",
      "approval_required",
      "approval_required",
    ]);
    expect((m as McpText).isError).toBe(false);
    expect(o.content.result).toEqual(a.content.result);
    expect(mc.result).toEqual(a.content.result);
    expect(await db().proposal.count({ where: { order: { number: "ORD-1001" }, tenant: { slug: ES } } })).toBe(1);
  });

  it("errors carry the same code and content over MCP (isError results)", async () => {
    const token = await tokenFor(ES, ana);
    const client = await mcpClient(headersFor({ token, trace: freshTrace() }));
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual([
      "lookup_order",
      "prepare_refund",
      "get_refund_status",
      "prepare_address_change",
      "prepare_order_cancellation",
      "prepare_contact_change",
      "prepare_replacement_order",
      "prepare_bulk_message",
      "get_action_status",
      "create_support_ticket",
    ]);
    expect(tools.tools[1]!.inputSchema).toMatchObject({
      additionalProperties: false,
      required: ["order_id", "reason"],
    });

    const unknown = await client.callTool({ name: "search_invoices", arguments: {} });
    expect((unknown as McpText).isError).toBe(true);
    const u = mcpContent(unknown);
    expect(u.code).toBe("unknown_tool");
    const http = await send(anthropicCall("search_invoices", {}), headersFor({ token, trace: freshTrace() }));
    expect(u.error).toEqual(http.content.error);

    const invalid = await client.callTool({
      name: "prepare_refund",
      arguments: { order_id: "ORD-1002", reason: "damaged_item", amount: 99 },
    });
    expect(mcpContent(invalid).code).toBe("invalid_arguments");
    const httpInvalid = await send(
      anthropicCall("prepare_refund", { order_id: "ORD-1002", reason: "damaged_item", amount: 99 }),
      headersFor({ token, trace: freshTrace() }),
    );
    expect(mcpContent(invalid).error).toEqual(httpInvalid.content.error);

    const foreign = await client.callTool({ name: "lookup_order", arguments: { order_id: "ORD-2001" } });
    expect(mcpContent(foreign).code).toBe("not_found");
    await client.close();
  });

  it("a bare JSON-RPC tools/call (no initialize, as in the docs' curl example) works: the server is stateless", async () => {
    const token = await tokenFor(ES, ana);
    const res = await mcpPOST(
      new Request("http://localhost/api/mcp", {
        method: "POST",
        headers: {
          ...headersFor({ token, trace: "mcp-bare-call-0001" }),
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 7,
          method: "tools/call",
          params: { name: "lookup_order", arguments: { order_id: "ORD-1001" } },
        }),
      }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("x-trace-id")).toBe("mcp-bare-call-0001");
    const body = (await res.json()) as { id: number; result: McpText };
    expect(body.id).toBe(7);
    expect(body.result.isError).toBe(false);
    expect(mcpContent(body.result)).toMatchObject({
      code: "ok",
      result: { order_id: "ORD-1001" },
      traceId: "mcp-bare-call-0001",
    });
  });

  it("MCP refuses a missing key (401 JSON) and hides channel-forbidden tools", async () => {
    const res = await mcpPOST(
      new Request("http://localhost/api/mcp", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      }),
    );
    expect(res.status).toBe(401);
    expect(((await res.json()) as { code: string }).code).toBe("unauthenticated");

    const client = await mcpClient(headersFor({ key: communityKey(), trace: freshTrace() }));
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["create_support_ticket"]);
    const hidden = await client.callTool({ name: "lookup_order", arguments: { order_id: "ORD-1001" } });
    expect(mcpContent(hidden).code).toBe("unknown_tool");
    await client.close();
    expect(webKey()).not.toBe(communityKey());
  });
});
