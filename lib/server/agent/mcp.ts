import "server-only";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { failure, isErrorOutcome, outcomeContent } from "@/lib/domain/agent-protocol";
import { toolCatalog, toolJsonSchema } from "@/lib/schemas/tools";
import { authenticateAgentKey, type AgentCaller } from "./authenticate-agent-key";
import { executeToolCall, logFailure } from "./execute-tool-call";
import { refuseKey, requestMeta, type RequestMeta } from "./http";

// POST /api/mcp: the same tools over MCP (Streamable HTTP, stateless: one server + transport per
// request, nothing kept in memory between requests). The bearer agent key is checked before the
// transport sees the request; every tool call goes through executeToolCall, so validation, codes,
// budgets and audit are exactly those of the HTTP contract. Errors are `isError: true` results whose
// text content is the same JSON ({"code","error","traceId"}).

function buildServer(caller: AgentCaller, meta: RequestMeta): Server {
  const server = new Server({ name: "agent-approval-gateway", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: caller.tools.map((name) => ({
      name,
      description: toolCatalog[name].description,
      inputSchema: toolJsonSchema(name) as { type: "object"; properties?: Record<string, object>; required?: string[] },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { outcome } = await executeToolCall(
      caller,
      {
        traceId: meta.traceId,
        transport: "mcp",
        callId: String(extra.requestId),
        endUserToken: meta.endUserToken,
        model: meta.model,
        promptVersion: meta.promptVersion,
      },
      request.params.name,
      request.params.arguments ?? {},
    );
    const text = outcomeContent(outcome, meta.traceId);
    return { content: [{ type: "text" as const, text }], isError: isErrorOutcome(outcome), structuredContent: JSON.parse(text) as Record<string, unknown> };
  });
  return server;
}

export async function handleMcpRequest(req: Request): Promise<Response> {
  const meta = requestMeta(req);
  try {
    const key = await authenticateAgentKey(req.headers.get("authorization"));
    if (!key.ok) {
      return await refuseKey(key, meta, "mcp", (o) => ({ code: o.code, ...("error" in o ? { error: o.error } : {}), traceId: meta.traceId }));
    }
    if (req.method !== "POST") {
      // Stateless server: no standalone SSE stream and no sessions to delete.
      return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed." }, id: null }), {
        status: 405,
        headers: { "content-type": "application/json", allow: "POST", "x-trace-id": meta.traceId },
      });
    }
    const server = buildServer(key.caller, meta);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      const res = await transport.handleRequest(req);
      const headers = new Headers(res.headers);
      headers.set("x-trace-id", meta.traceId);
      const body = res.body ? await res.text() : null;
      return new Response(body, { status: res.status, headers });
    } finally {
      await server.close().catch(() => undefined);
    }
  } catch (error) {
    logFailure("mcp route", meta, error);
    const content = outcomeContent(failure("internal_error", "Something went wrong on our side."), meta.traceId);
    return new Response(content, { status: 500, headers: { "content-type": "application/json", "x-trace-id": meta.traceId } });
  }
}
