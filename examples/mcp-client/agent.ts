// An MCP client (@modelcontextprotocol/sdk) driving the gateway's MCP endpoint, with a Claude model
// (@anthropic-ai/sdk) deciding the calls: tools come from MCP tools/list, calls go through MCP tools/call,
// and every result — isError ones included — goes back to the model as a tool_result.
import type Anthropic from "@anthropic-ai/sdk";
import { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { gatewayHeaders, type GatewayConfig } from "../shared/gateway";
import { BudgetTracker, HANDOVER, NUDGE, defaultBudget, type AgentRun, type Budget } from "../shared/harness";
import { SYSTEM, clearOldToolResults } from "../anthropic-messages/agent";

/**
 * Connects to POST /api/mcp. The agent key, end-user token and trace id travel as HTTP headers on every
 * request (requestInit.headers) — the server does not use MCP's OAuth flow, so no authProvider is needed.
 */
export async function connectGatewayMcp(cfg: GatewayConfig): Promise<McpClient> {
  const transport = new StreamableHTTPClientTransport(new URL(`${cfg.baseUrl}/api/mcp`), {
    requestInit: { headers: gatewayHeaders(cfg) },
  });
  const client = new McpClient({ name: "gateway-example-mcp-client", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

type TextContent = { type: string; text?: string };

export async function runMcpAgent(opts: {
  anthropic: Anthropic;
  gateway: GatewayConfig;
  model: string;
  userMessage: string;
  budget?: Budget;
}): Promise<AgentRun> {
  const budget = new BudgetTracker(opts.budget ?? defaultBudget);
  const mcp = await connectGatewayMcp(opts.gateway);
  try {
    const listed = (await mcp.listTools()).tools;
    // MCP serves the full JSON Schema (every limit); Anthropic's strict mode accepts a subset, so these tools
    // are sent without `strict` — the gateway validates every call anyway. (GET /api/agent/tools?format=anthropic
    // serves the strict-ready subset when strict sampling matters.)
    const tools: Anthropic.Tool[] = listed.map((t) => ({
      name: t.name,
      description: t.description ?? t.title ?? t.name,
      input_schema: t.inputSchema,
    }));
    const toolNames = tools.map((t) => t.name);
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: opts.userMessage }];
    const calls: AgentRun["calls"] = [];
    const done = (text: string, stoppedBecause: string | null): AgentRun => ({
      text,
      stoppedBecause,
      steps: budget.steps,
      calls,
      nudged: budget.nudged,
    });

    while (budget.step()) {
      clearOldToolResults(messages, budget.budget.keepToolResults);
      const reply = await opts.anthropic.messages.create({
        model: opts.model,
        max_tokens: 1024,
        system: SYSTEM,
        tools,
        messages,
      });
      messages.push({ role: "assistant", content: reply.content });
      const uses = reply.content.filter((b): b is Anthropic.ToolUseBlock => b.type === "tool_use");
      const text = reply.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
      if (uses.length === 0) {
        if (budget.shouldNudge(text, toolNames)) {
          messages.push({ role: "user", content: NUDGE });
          continue;
        }
        return done(text, null);
      }
      const results: Anthropic.ToolResultBlockParam[] = [];
      let stop: string | null = null;
      for (const use of uses) {
        const r = await mcp.callTool({ name: use.name, arguments: use.input as Record<string, unknown> });
        const content = ((r.content ?? []) as TextContent[]).map((c) => c.text ?? "").join("\n");
        const raw = (r.structuredContent as { code?: unknown } | undefined)?.code;
        const code = typeof raw === "string" ? raw : "unknown";
        calls.push({ name: use.name, code });
        results.push({ type: "tool_result", tool_use_id: use.id, is_error: r.isError === true, content });
        stop ??= budget.afterTool(code, r.isError === true);
      }
      messages.push({ role: "user", content: results });
      if (stop) return done(HANDOVER, stop);
    }
    return done(HANDOVER, `step budget of ${budget.budget.maxSteps} spent`);
  } finally {
    await mcp.close();
  }
}
