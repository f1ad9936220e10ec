// MCP through the official SDK client over Streamable HTTP against the route: titles, annotations, an
// outputSchema the client validates on success AND error results, and a 401 that starts no OAuth flow.
import { describe, expect, it } from "vitest";
import { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { POST as mcpPOST } from "@/app/api/mcp/route";
import { ana, ES, freshTrace, headersFor, tokenFor } from "./gateway-support";

function connect(headers: Record<string, string>, seen: string[] = []) {
  const transport = new StreamableHTTPClientTransport(new URL("http://localhost/api/mcp"), {
    requestInit: { headers },
    fetch: async (url, init) => {
      seen.push(String(url));
      // Only the MCP route exists here: anything else (OAuth discovery) would be a 404, as in the app.
      if (new URL(String(url)).pathname !== "/api/mcp") return new Response("not found", { status: 404 });
      return mcpPOST(new Request(url, init));
    },
  });
  const client = new McpClient({ name: "gateway-mcp-test", version: "1.0.0" });
  return { client, transport };
}

type Result = {
  content: { type: string; text: string }[];
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
};

describe("MCP tools/list and tools/call through the official SDK client", () => {
  it("tools carry titles, annotations and an outputSchema", async () => {
    const { client, transport } = connect(headersFor({ trace: freshTrace() }));
    await client.connect(transport);
    const { tools } = await client.listTools();
    await client.close();
    const by = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(by.lookup_order!.title).toBe("Look up an order");
    expect(by.lookup_order!.annotations).toMatchObject({ readOnlyHint: true });
    expect(by.get_refund_status!.annotations).toMatchObject({ readOnlyHint: true });
    expect(by.prepare_refund!.annotations).toMatchObject({
      readOnlyHint: false,
      idempotentHint: true,
      destructiveHint: false,
    });
    expect(by.create_support_ticket!.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
    });
    for (const t of tools) {
      expect(t.title).toBeTruthy();
      expect(t.outputSchema).toMatchObject({ type: "object", required: ["code", "traceId"] });
      // MCP gets the full schema: the limits the vendors' strict modes cannot hold are here.
      if (t.name === "lookup_order") expect(JSON.stringify(t.inputSchema)).toContain('"maxLength":40');
    }
  });

  it("success and error results both validate against the outputSchema in the SDK client", async () => {
    const token = await tokenFor(ES, ana);
    const { client, transport } = connect(headersFor({ token, trace: freshTrace() }));
    await client.connect(transport);
    await client.listTools(); // the client caches the output validators from tools/list
    const ok = (await client.callTool({ name: "lookup_order", arguments: { order_id: "ORD-1001" } })) as Result;
    expect(ok.isError).toBe(false);
    expect(ok.structuredContent).toMatchObject({ code: "ok", result: { order_id: "ORD-1001" } });
    const pending = (await client.callTool({
      name: "prepare_refund",
      arguments: { order_id: "ORD-1001", reason: "damaged_item" },
    })) as Result;
    expect(pending.structuredContent!.code).toBe("approval_required");
    for (const [name, args, code] of [
      ["lookup_order", { order_id: "ORD-2001" }, "not_found"],
      ["prepare_refund", { order_id: "ORD-1001", reason: "damaged_item", amount: 1 }, "invalid_arguments"],
      ["get_refund_status", { proposal_id: "00000000-0000-4000-8000-000000000000" }, "not_found"],
    ] as const) {
      const r = (await client.callTool({ name, arguments: args })) as Result;
      expect(r.isError).toBe(true);
      expect(r.structuredContent).toMatchObject({ code, error: { message: expect.any(String) } });
      expect(JSON.parse(r.content[0]!.text)).toEqual(r.structuredContent);
    }
    await client.close();
  });

  it("a missing or wrong key: 401 without a Bearer challenge or resource_metadata, and the client starts no OAuth discovery", async () => {
    const res = await mcpPOST(
      new Request("http://localhost/api/mcp", {
        method: "POST",
        headers: {
          authorization: "Bearer wrong-key-0000000",
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      }),
    );
    expect(res.status).toBe(401);
    const challenge = res.headers.get("www-authenticate") ?? "";
    expect(challenge).not.toMatch(/^\s*bearer/i);
    expect(challenge).not.toMatch(/resource_metadata/i);
    expect(challenge).toMatch(/^AgentKey /);
    const body = (await res.json()) as {
      jsonrpc: string;
      error: { code: number; data: { code: string } };
      code: string;
    };
    expect(body).toMatchObject({
      jsonrpc: "2.0",
      code: "unauthenticated",
      error: { data: { code: "unauthenticated" } },
    });

    const seen: string[] = [];
    const { client, transport } = connect({ authorization: "Bearer wrong-key-0000000" }, seen);
    await expect(client.connect(transport)).rejects.toThrow();
    expect(seen.every((u) => new URL(u).pathname === "/api/mcp")).toBe(true);
  });
});
