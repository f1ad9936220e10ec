// A Messages API tool loop with the official @anthropic-ai/sdk, calling the gateway for every tool_use.
// The gateway answers in Anthropic's own shape ({type:"tool_result", tool_use_id, is_error, content}), so
// the answer goes back to the model as it is: errors included, never swallowed.
import type Anthropic from "@anthropic-ai/sdk";
import { codeOf, listGatewayTools, postToolCall, type GatewayConfig } from "../shared/gateway";
import {
  BudgetTracker,
  CLEARED,
  HANDOVER,
  NUDGE,
  SUPPORT_INSTRUCTIONS,
  defaultBudget,
  type AgentRun,
  type Budget,
} from "../shared/harness";

type ToolResult = { type: "tool_result"; tool_use_id: string; is_error: boolean; content: string };

export const SYSTEM = SUPPORT_INSTRUCTIONS;

/** Replaces the content of all but the newest `keep` tool results with a short marker. */
export function clearOldToolResults(messages: Anthropic.MessageParam[], keep: number): void {
  const results: { content?: unknown }[] = [];
  for (const m of messages) {
    if (m.role !== "user" || typeof m.content === "string") continue;
    for (const block of m.content) if (block.type === "tool_result") results.push(block);
  }
  for (const r of results.slice(0, Math.max(0, results.length - keep))) r.content = CLEARED;
}

export async function runAnthropicAgent(opts: {
  client: Anthropic;
  gateway: GatewayConfig;
  model: string;
  userMessage: string;
  budget?: Budget;
}): Promise<AgentRun & { messages: Anthropic.MessageParam[] }> {
  const budget = new BudgetTracker(opts.budget ?? defaultBudget);
  const tools = await listGatewayTools<Anthropic.Tool>(opts.gateway, "anthropic");
  const toolNames = tools.map((t) => t.name);
  const messages: Anthropic.MessageParam[] = [{ role: "user", content: opts.userMessage }];
  const calls: AgentRun["calls"] = [];
  const done = (text: string, stoppedBecause: string | null) => ({
    text,
    stoppedBecause,
    steps: budget.steps,
    calls,
    nudged: budget.nudged,
    messages,
  });

  while (budget.step()) {
    clearOldToolResults(messages, budget.budget.keepToolResults);
    const reply = await opts.client.messages.create({
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

    const results: ToolResult[] = [];
    let stop: string | null = null;
    for (const use of uses) {
      // The gateway speaks Anthropic: the block goes as it is, the answer comes back as a tool_result.
      const answer = await postToolCall<ToolResult>(opts.gateway, {
        type: "tool_use",
        id: use.id,
        name: use.name,
        input: use.input,
      });
      const code = codeOf(answer.content);
      calls.push({ name: use.name, code });
      results.push(answer);
      stop ??= budget.afterTool(code, answer.is_error);
    }
    messages.push({ role: "user", content: results });
    if (stop) return done(HANDOVER, stop);
  }
  return done(HANDOVER, `step budget of ${budget.budget.maxSteps} spent`);
}
