// Recipe: an MCP client that waits for a human with MCP tasks (docs/agent-api.md "MCP tasks"). The model
// (@anthropic-ai/sdk) decides the calls; a tool whose tools/list entry declares `execution.taskSupport` is called as
// a task through the official SDK (client.experimental.tasks.callToolStream): the call answers at once with a task,
// the customer is told while it is `working` (a person decides, then the action runs), and the SDK polls tasks/get
// at the server's pollInterval and fetches the final outcome with tasks/result. That outcome — the executed refund,
// or the rejection with its reason — is the tool_result the model reads: the tool is never called again, and the
// model never polls.
import type Anthropic from "@anthropic-ai/sdk";
import { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { gatewayHeaders, type GatewayConfig } from "../shared/gateway";
import { HANDOVER, SUPPORT_INSTRUCTIONS } from "../shared/harness";
import { actionIn, money, type Envelope, type RecipeRun } from "../shared/recipes";

/** The tools/list entry says the tool may (or must) run as a task: MCP 2025-11-25 `execution.taskSupport`. */
export const runsAsTask = (t: Tool) => {
  const support = (t as Tool & { execution?: { taskSupport?: string } }).execution?.taskSupport;
  return support === "optional" || support === "required";
};

const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");

/**
 * One call as a task. `told` gets what the customer is shown while it is open (once per status message); the result
 * is what tasks/result answered.
 */
async function callAsTask(
  mcp: McpClient,
  name: string,
  args: Record<string, unknown>,
  tell: (text: string) => void,
  ttlMs: number,
): Promise<{ result: CallToolResult; taskId: string | null }> {
  let taskId: string | null = null;
  let last = "";
  for await (const m of mcp.experimental.tasks.callToolStream({ name, arguments: args }, CallToolResultSchema, {
    task: { ttl: ttlMs },
  })) {
    if (m.type === "taskCreated") taskId = m.task.taskId;
    else if (m.type === "taskStatus") {
      const message = m.task.statusMessage ?? m.task.status;
      if (m.task.status === "working" && message !== last) tell(`Update on your request: ${message}`);
      last = message;
    } else if (m.type === "result") return { result: m.result, taskId };
    else throw m.error;
  }
  throw new Error("the task stream ended without a result");
}

export async function runMcpTasksAgent(opts: {
  anthropic: Anthropic;
  gateway: GatewayConfig;
  model: string;
  userMessage: string;
  /** Where the customer sees messages while the run goes on (the chat window); every message is also returned. */
  onCustomerMessage?: (text: string) => void;
  maxSteps?: number;
  taskTtlMs?: number;
  /** The transport's fetch (default: the global one); a test passes one that records each JSON-RPC method. */
  fetch?: typeof fetch;
}): Promise<RecipeRun & { calls: { name: string; code: string; asTask: boolean }[]; taskIds: string[] }> {
  // As examples/mcp-client connects: the agent key, end-user token and trace id as headers on every request.
  const mcp = new McpClient({ name: "gateway-recipe-mcp-tasks", version: "1.0.0" });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${opts.gateway.baseUrl}/api/mcp`), {
      requestInit: { headers: gatewayHeaders(opts.gateway) },
      ...(opts.fetch ? { fetch: opts.fetch } : {}),
    }),
  );
  const told: string[] = [];
  const tell = (text: string) => {
    told.push(text);
    opts.onCustomerMessage?.(text);
  };
  const calls: { name: string; code: string; asTask: boolean }[] = [];
  const taskIds: string[] = [];
  let outcome: Envelope | null = null;
  try {
    const listed = (await mcp.listTools()).tools;
    const byName = new Map(listed.map((t) => [t.name, t]));
    const tools: Anthropic.Tool[] = listed.map((t) => ({
      name: t.name,
      description: t.description ?? t.title ?? t.name,
      input_schema: t.inputSchema,
    }));
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: opts.userMessage }];
    for (let step = 0; step < (opts.maxSteps ?? 6); step++) {
      const reply = await opts.anthropic.messages.create({
        model: opts.model,
        max_tokens: 1024,
        system: SUPPORT_INSTRUCTIONS,
        tools,
        messages,
      });
      messages.push({ role: "assistant", content: reply.content });
      const uses = reply.content.filter((b): b is Anthropic.ToolUseBlock => b.type === "tool_use");
      if (uses.length === 0) {
        const text = reply.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
        tell(text);
        return { told, reviewed: actionIn(outcome), outcome, text, calls, taskIds };
      }
      const results: Anthropic.ToolResultBlockParam[] = [];
      for (const use of uses) {
        const tool = byName.get(use.name);
        const args = use.input as Record<string, unknown>;
        const asTask = tool !== undefined && runsAsTask(tool);
        let r: CallToolResult;
        if (asTask) {
          const done = await callAsTask(mcp, use.name, args, tell, opts.taskTtlMs ?? 3_600_000);
          r = done.result;
          if (done.taskId) taskIds.push(done.taskId);
          outcome = r.structuredContent as Envelope;
        } else r = (await mcp.callTool({ name: use.name, arguments: args })) as CallToolResult;
        const code = (r.structuredContent as { code?: string } | undefined)?.code ?? "unknown";
        calls.push({ name: use.name, code, asTask });
        results.push({ type: "tool_result", tool_use_id: use.id, is_error: r.isError === true, content: textOf(r) });
      }
      messages.push({ role: "user", content: results });
    }
    tell(HANDOVER);
    return { told, reviewed: actionIn(outcome), outcome, text: HANDOVER, calls, taskIds };
  } finally {
    await mcp.close();
  }
}

/** The final outcome's action — what the reviewer approved or rejected — as one line. */
export function describeOutcome(outcome: Envelope | null): string {
  if (!outcome) return "no outcome";
  const body = (outcome.result ?? outcome.error ?? {}) as {
    status?: string;
    action?: { amount?: { minor: number; currency: string }; recipient?: { display?: string } };
  };
  const a = body.action;
  return `${outcome.code} (${body.status ?? "-"}): ${a?.amount ? money(a.amount) : "?"} to ${a?.recipient?.display ?? "?"}`;
}
