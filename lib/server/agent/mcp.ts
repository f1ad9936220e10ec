import "server-only";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { randomUUID } from "node:crypto";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { failure, outcomeContent, type ToolOutcome } from "@/lib/domain/agent-protocol";
import { kindTools } from "@/lib/actions/registry";
import { toolCatalog, toolJsonSchema, toolOutputSchema } from "@/lib/schemas/tools";
import { dynamicToolsFor } from "./dynamic-tools";
import { authenticateAgentKey, type AgentCaller } from "./authenticate-agent-key";
import { executeToolCall, logFailure } from "./execute-tool-call";
import { callToolResult, PgTaskStore } from "./mcp-tasks";
import { declaresUrlElicitation, findMcpSession, initializeOf, openMcpSession, type McpSession } from "./mcp-sessions";
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

/** The customer's confirmation page of an `approval_required` answer, when the customer must confirm. */
const confirmUrlOf = (outcome: ToolOutcome): string | null =>
  outcome.code === "approval_required" && "result" in outcome && typeof outcome.result.confirm_url === "string"
    ? outcome.result.confirm_url
    : null;

/**
 * MCP URL-mode elicitation: asks the client to open the customer's confirmation page (`elicitation/create`, mode
 * `url`), written on this request's stream before the tool's answer. The client's reply (whether the person agreed to
 * open it) is not waited for: what counts is the confirmation on the page, which the proposal records; a stateless
 * server could not route the reply back anyway. Only sent in a session whose client declared URL elicitation.
 */
async function askToConfirm(transport: Transport, requestId: string | number, proposalId: unknown, url: string) {
  await transport.send(
    {
      jsonrpc: "2.0",
      id: `confirm-${randomUUID()}`,
      method: "elicitation/create",
      params: {
        mode: "url",
        elicitationId: typeof proposalId === "string" ? proposalId : randomUUID(),
        url,
        message: "The customer must confirm this action on the page that opens before anything happens.",
      },
    },
    { relatedRequestId: requestId },
  );
}

function buildServer(
  caller: AgentCaller,
  meta: RequestMeta,
  last: { call: CallTrace | null },
  session: McpSession | null,
  transport: Transport,
): Server {
  const tasks = new PgTaskStore(caller);
  const server = new Server(
    { name: "agent-approval-gateway", version: "1.0.0" },
    {
      capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
      taskStore: tasks,
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      ...caller.tools.map((name) => ({
        name,
        title: toolCatalog[name].title,
        description: toolCatalog[name].description,
        // MCP has no strict-mode subset: the full schema, every limit included.
        inputSchema: toolJsonSchema(name) as {
          type: "object";
          properties?: Record<string, object>;
          required?: string[];
        },
        outputSchema: toolOutputSchema as unknown as {
          type: "object";
          properties?: Record<string, object>;
          required?: string[];
        },
        annotations: { title: toolCatalog[name].title, ...toolCatalog[name].annotations },
        ...(taskTools.has(name) ? { execution: { taskSupport: "optional" as const } } : {}),
      })),
      // The tenant's declared tools (lib/server/agent/dynamic-tools.ts): the same envelope, no task support.
      ...(await dynamicToolsFor(caller)).map((t) => ({
        name: t.name,
        title: t.title,
        description: t.description,
        inputSchema: t.inputSchema as { type: "object"; properties?: Record<string, object>; required?: string[] },
        outputSchema: toolOutputSchema as unknown as {
          type: "object";
          properties?: Record<string, object>;
          required?: string[];
        },
        annotations: { title: t.title, ...t.annotations },
      })),
    ],
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
    const confirmUrl = confirmUrlOf(outcome);
    if (confirmUrl && session?.urlElicitation && "result" in outcome)
      await askToConfirm(transport, extra.requestId, outcome.result.proposal_id, confirmUrl);
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

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
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
    // Sessions only for clients that declare URL elicitation (./mcp-sessions.ts); any other request is sessionless.
    const init = initializeOf(parseJson(body.text));
    const sessionId = init ? null : req.headers.get("mcp-session-id");
    const session = sessionId ? await findMcpSession(key.caller, sessionId) : null;
    if (sessionId && !session) {
      return new Response(
        JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found." }, id: null }),
        { status: 404, headers: { "content-type": "application/json", "x-trace-id": meta.traceId } },
      );
    }
    const last: { call: CallTrace | null } = { call: null };
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      // A session's client may be sent a request (elicitation/create) before the answer: a stream, not one JSON body.
      enableJsonResponse: !session?.urlElicitation,
    });
    const server = buildServer(key.caller, meta, last, session, transport);
    await server.connect(transport);
    try {
      const res = await transport.handleRequest(checked);
      const headers = new Headers(res.headers);
      if (init && res.status === 200 && declaresUrlElicitation(init.capabilities))
        headers.set("mcp-session-id", await openMcpSession(key.caller, init));
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
