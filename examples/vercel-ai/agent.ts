// The Vercel AI SDK (`ai`) with the gateway's tools: generateText runs the loop (stopWhen = the step budget),
// prepareStep clears old tool results, and each tool's execute posts an OpenAI Chat Completions
// `tool_calls[i]` item to the gateway and hands the answer's JSON string back to the model, errors included.
// Any AI SDK model works (Anthropic, OpenAI, …); the test uses the SDK's MockLanguageModelV4.
import { generateText, jsonSchema, stepCountIs, tool, type LanguageModel, type ModelMessage, type ToolSet } from "ai";
import { codeOf, listGatewayTools, postToolCall, type GatewayConfig } from "../shared/gateway";
import { BudgetTracker, CLEARED, HANDOVER, NUDGE, defaultBudget, type AgentRun, type Budget } from "../shared/harness";

type ServedTool = { type: "function"; function: { name: string; description: string; parameters: Record<string, unknown>; strict: boolean } };
type ChatAnswer = { role: "tool"; tool_call_id: string; content: string };

export const SYSTEM =
  "You are a support agent for an online shop. Use the tools to look up the customer's orders and to prepare refunds; " +
  "a prepared refund waits for a human reviewer, so tell the customer it awaits review. If a tool answers an error, read it and fix the call, " +
  "or ask the customer. Never invent amounts or customer data.";

/** Replaces the output of all but the newest `keep` tool results. */
export function clearOldToolResults(messages: ModelMessage[], keep: number): ModelMessage[] {
  let total = 0;
  for (const m of messages) if (m.role === "tool") total += m.content.filter((p) => p.type === "tool-result").length;
  let seen = 0;
  return messages.map((m) => {
    if (m.role !== "tool") return m;
    return {
      ...m,
      content: m.content.map((p) => (p.type === "tool-result" && ++seen <= total - keep ? { ...p, output: { type: "text" as const, value: CLEARED } } : p)),
    };
  });
}

export async function runVercelAgent(opts: { model: LanguageModel; gateway: GatewayConfig; userMessage: string; budget?: Budget }): Promise<AgentRun> {
  const budget = new BudgetTracker(opts.budget ?? defaultBudget);
  const served = await listGatewayTools<ServedTool>(opts.gateway, "openai_chat");
  const calls: AgentRun["calls"] = [];
  let stop: string | null = null;

  const tools: ToolSet = Object.fromEntries(
    served.map(({ function: f }) => [
      f.name,
      tool({
        description: f.description,
        inputSchema: jsonSchema<Record<string, unknown>>(f.parameters as never),
        execute: async (args: Record<string, unknown>, { toolCallId }) => {
          const answer = await postToolCall<ChatAnswer>(opts.gateway, {
            id: toolCallId,
            type: "function",
            function: { name: f.name, arguments: JSON.stringify(args) },
          });
          const code = codeOf(answer.content);
          calls.push({ name: f.name, code });
          stop ??= budget.afterTool(code, !["ok", "approval_required", "result_pending"].includes(code));
          return answer.content;
        },
      }),
    ]),
  );

  let messages: ModelMessage[] = [{ role: "user", content: opts.userMessage }];
  for (;;) {
    const left = budget.budget.maxSteps - budget.steps;
    if (left <= 0)
      return { text: HANDOVER, stoppedBecause: `step budget of ${budget.budget.maxSteps} spent`, steps: budget.steps, calls, nudged: budget.nudged };
    const result = await generateText({
      model: opts.model,
      system: SYSTEM,
      tools,
      messages,
      stopWhen: [stepCountIs(left), () => stop !== null],
      prepareStep: ({ messages: current }) => ({ messages: clearOldToolResults(current, budget.budget.keepToolResults) }),
    });
    budget.steps += result.steps.length;
    if (stop) return { text: HANDOVER, stoppedBecause: stop, steps: budget.steps, calls, nudged: budget.nudged };
    const last = result.steps.at(-1);
    if (last && last.toolCalls.length > 0) {
      // The loop ended on a tool call: the step budget ran out before the model finished.
      return { text: HANDOVER, stoppedBecause: `step budget of ${budget.budget.maxSteps} spent`, steps: budget.steps, calls, nudged: budget.nudged };
    }
    messages = [...messages, ...result.response.messages];
    if (budget.shouldNudge(result.text, Object.keys(tools))) {
      messages.push({ role: "user", content: NUDGE });
      continue;
    }
    return { text: result.text, stoppedBecause: null, steps: budget.steps, calls, nudged: budget.nudged };
  }
}
