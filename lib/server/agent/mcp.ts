import "server-only";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { failure, outcomeContent } from "@/lib/domain/agent-protocol";
import { kindTools } from "@/lib/actions/registry";
import { toolCatalog, toolJsonSchema, toolOutputSchema } from "@/lib/schemas/tools";
import { authenticateAgentKey, type AgentCaller } from "./authenticate-agent-key";
import { executeToolCall, logFailure } from "./execute-tool-call";
import { callToolResult, PgTaskStore } from "./mcp-tasks";
import { MAX_BODY, refuseKey, requestMeta, type RequestMeta } from "./http";
import { readCappedBody } from "@/lib/config/body-limits";
import { mcpCallTrace } from "@/lib/server/telemetry/agent-trace";
import { activeTraceresponse } from "@/lib/server/telemetry/tracing";

// POST /api/mcp: the same tools over MCP (Streamable HTTP, stateless: one server + transport per
// request, nothing kept in memory between requests). The bearer agent key is checked before the
// transport sees the request; every tool call goes through executeToolCall, so validation, codes,
// budgets and audit are exactly those of the HTTP contract. Errors are `isError: true` results whose
// text content is the same JSON ({"code","error","traceId"}). The kinds' prepare tools take `task` (MCP tasks,
// ./mcp-tasks.ts): the call answers with a task that ends when a person has decided and the action has run.

/** Not `Bearer`: see the 401 branch below. The key still travels as `Authorization: Bearer <agent key>`. */
export const MCP_CHALLENGE = 'AgentKey realm="mcp", header="Authorization: Bearer <agent key>"';

/** What the last tool call of the request answered with: its trace id and `traceresponse` (HTTP headers). */
type CallTrace = { traceId: string; traceresponse: string | null };

/** The tools a task may wait on: the kinds' prepare tools (those that make a proposal; a status tool only reads). */
export const taskTools: ReadonlySet<string> = new Set(
  Object.entries(kindTools)
    .filter(([, t]) => t.annotations.readOnlyHint !== true)
    .map(([name]) => name),
);

function buildServer(caller: AgentCaller, meta: RequestMeta, last: { call: CallTrace | null }): Server {
  const tasks = new PgTaskStore(caller);
  const server = new Server(
    { name: "agent-approval-gateway", version: "1.0.0" },
    {
      capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
      taskStore: tasks,
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: caller.tools.map((name) => ({
      name,
      title: toolCatalog[name].title,
      description: toolCatalog[name].description,
      // MCP has no strict-mode subset: the full schema, every limit included.
      inputSchema: toolJsonSchema(name) as { type: "object"; properties?: Record<string, object>; required?: string[] },
      outputSchema: toolOutputSchema as unknown as {
        type: "object";
        properties?: Record<string, object>;
        required?: string[];
      },
      annotations: { title: toolCatalog[name].title, ...toolCatalog[name].annotations },
      ...(taskTools.has(name) ? { execution: { taskSupport: "optional" as const } } : {}),
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const asTask = request.params.task;
    // MCP: a tool that does not declare task support is never run as a task (-32601, nothing is called).
    if (asTask && !(taskTools.has(request.params.name) && caller.tools.includes(request.params.name as never)))
      throw new McpError(ErrorCode.MethodNotFound, `Tool ${request.params.name} cannot be called as a task.`);
    const trace = mcpCallTrace(meta, request.params._meta);
    const { outcome, traceresponse } = await executeToolCall(
      caller,
      {
        traceId: trace.traceId,
        parent: trace.parent,
        transport: "mcp",
        callId: String(extra.requestId),
        endUserToken: meta.endUserToken,
        model: meta.model,
        promptVersion: meta.promptVersion,
        signal: extra.signal,
      },
      request.params.name,
      request.params.arguments ?? {},
    );
    last.call = { traceId: trace.traceId, traceresponse: traceresponse ?? null };
    if (asTask) return { task: await tasks.open(request.params.name, trace.traceId, outcome, asTask.ttl) };
    const result = callToolResult(outcome, trace.traceId);
    // A proposal awaiting review links its review page (MCP `resource_link`), for the client to show a person.
    const review = outcome.code === "approval_required" && "result" in outcome ? outcome.result.review_url : undefined;
    const link =
      typeof review === "string"
        ? [
            {
              type: "resource_link" as const,
              uri: review,
              name: "review-page",
              title: "Review this refund",
              mimeType: "text/html",
            },
          ]
        : [];
    return { ...result, content: [...result.content, ...link] };
  });
  return server;
}

export async function handleMcpRequest(req: Request): Promise<Response> {
  const meta = requestMeta(req);
  try {
    const key = await authenticateAgentKey(req.headers.get("authorization"));
    if (!key.ok) {
      // MCP authorization (OAuth 2.1 + RFC 9728 protected-resource metadata) is OPTIONAL in the spec and this
      // server does not implement it: the agent key is configured in the client, not obtained by a flow. A
      // `WWW-Authenticate: Bearer` challenge makes MCP clients (the Inspector, SDK clients with an auth
      // provider) start OAuth discovery against us, so the 401 names a non-OAuth scheme and no
      // resource_metadata; the body is a JSON-RPC error that also carries our code and trace id.
      return await refuseKey(
        key,
        meta,
        "mcp",
        (o) => ({
          jsonrpc: "2.0",
          id: null,
          error: {
            code: -32001,
            message: "error" in o ? o.error.message : "Unauthenticated.",
            data: { code: o.code, traceId: meta.traceId },
          },
          code: o.code,
          traceId: meta.traceId,
        }),
        MCP_CHALLENGE,
        req.headers,
      );
    }
    if (req.method !== "POST") {
      // Stateless server: no standalone SSE stream and no sessions to delete.
      return new Response(
        JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed." }, id: null }),
        {
          status: 405,
          headers: { "content-type": "application/json", allow: "POST", "x-trace-id": meta.traceId },
        },
      );
    }
    // Read only now (authenticated), capped while streaming; the transport gets the checked copy.
    const body = await readCappedBody(req, MAX_BODY);
    if (!body.ok) {
      const status = body.reason === "too_large" ? 413 : 400;
      const message =
        body.reason === "too_large" ? `The body is larger than ${MAX_BODY} bytes.` : "The body could not be read.";
      return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: -32600, message }, id: null }), {
        status,
        headers: { "content-type": "application/json", "x-trace-id": meta.traceId },
      });
    }
    const checked = new Request(req.url, { method: req.method, headers: req.headers, body: body.text });
    const last: { call: CallTrace | null } = { call: null };
    const server = buildServer(key.caller, meta, last);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      const res = await transport.handleRequest(checked);
      const headers = new Headers(res.headers);
      headers.set("x-trace-id", last.call?.traceId ?? meta.traceId);
      const traceresponse = last.call ? last.call.traceresponse : activeTraceresponse();
      if (traceresponse) headers.set("traceresponse", traceresponse);
      const body = res.body ? await res.text() : null;
      return new Response(body, { status: res.status, headers });
    } finally {
      await server.close().catch(() => undefined);
    }
  } catch (error) {
    logFailure("mcp route", meta, error);
    const content = outcomeContent(failure("internal_error", "Something went wrong on our side."), meta.traceId);
    return new Response(content, {
      status: 500,
      headers: { "content-type": "application/json", "x-trace-id": meta.traceId },
    });
  }
}
