// The Vercel AI SDK (`ai`) with the gateway's tools: generateText runs the loop (stopWhen = the step budget),
// prepareStep clears old tool results, and each tool's execute posts an OpenAI Chat Completions
// `tool_calls[i]` item to the gateway and hands the answer's JSON string back to the model, errors included —
// marked as errors (toModelOutput → error-text), so the model and the provider see a failed call, not a
// successful result. The served `strict: true` is kept on every tool. A tool name the model invents is answered
// by the SDK itself (NoSuchToolError as a tool error result, listing the tools) before anything reaches the
// gateway; the harness counts it like any other error answer.
// Any AI SDK model works (Anthropic, OpenAI, …); the test and `main.ts --scripted` use the SDK's MockLanguageModelV4.
import { generateText, jsonSchema, stepCountIs, tool, type LanguageModel, type ModelMessage, type ToolSet } from "ai";
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

type ServedTool = {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown>; strict: boolean };
};
type ChatAnswer = { role: "tool"; tool_call_id: string; content: string };

export const SYSTEM = SUPPORT_INSTRUCTIONS;

/** The gateway's success codes; every other code is an error the model must see as one. */
const SUCCESS = new Set(["ok", "approval_required", "result_pending"]);

/** Replaces the output of all but the newest `keep` tool results. */
export function clearOldToolResults(messages: ModelMessage[], keep: number): ModelMessage[] {
  let total = 0;
  for (const m of messages) if (m.role === "tool") total += m.content.filter((p) => p.type === "tool-result").length;
  let seen = 0;
  return messages.map((m) => {
    if (m.role !== "tool") return m;
    return {
      ...m,
      content: m.content.map((p) =>
        p.type === "tool-result" && ++seen <= total - keep
          ? {
              ...p,
              output: {
                type: p.output.type === "error-text" ? ("error-text" as const) : ("text" as const),
                value: CLEARED,
              },
            }
          : p,
      ),
    };
  });
}

export async function runVercelAgent(opts: {
  model: LanguageModel;
  gateway: GatewayConfig;
  userMessage: string;
  budget?: Budget;
}): Promise<AgentRun> {
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
        // The gateway serves the strict subset; providers with a strict mode (OpenAI, Anthropic) honour it.
        strict: f.strict,
        // The answer string goes to the model as it is; an error code marks it as a failed call.
        toModelOutput: ({ output }: { output: string }) =>
          SUCCESS.has(codeOf(output)) ? { type: "text", value: output } : { type: "error-text", value: output },
        execute: async (args: Record<string, unknown>, { toolCallId }): Promise<string> => {
          const answer = await postToolCall<ChatAnswer>(opts.gateway, {
            id: toolCallId,
            type: "function",
            function: { name: f.name, arguments: JSON.stringify(args) },
          });
          const code = codeOf(answer.content);
          calls.push({ name: f.name, code });
          stop ??= budget.afterTool(code, !SUCCESS.has(code));
          return answer.content;
        },
      }),
    ]),
  );

  let messages: ModelMessage[] = [{ role: "user", content: opts.userMessage }];
  for (;;) {
    const left = budget.budget.maxSteps - budget.steps;
    if (left <= 0)
      return {
        text: HANDOVER,
        stoppedBecause: `step budget of ${budget.budget.maxSteps} spent`,
        steps: budget.steps,
        calls,
        nudged: budget.nudged,
      };
    const result = await generateText({
      model: opts.model,
      system: SYSTEM,
      tools,
      messages,
      stopWhen: [stepCountIs(left), () => stop !== null],
      prepareStep: ({ messages: current }) => ({
        messages: clearOldToolResults(current, budget.budget.keepToolResults),
      }),
      // Tool calls the SDK answered itself (an invented tool name) count against the harness's error budget too.
      onStepFinish: (step) => {
        for (const part of step.content)
          if (part.type === "tool-error" && !(part.toolName in tools)) {
            calls.push({ name: part.toolName, code: "unknown_tool" });
            stop ??= budget.afterTool("unknown_tool", true);
          }
      },
    });
    budget.steps += result.steps.length;
    if (stop) return { text: HANDOVER, stoppedBecause: stop, steps: budget.steps, calls, nudged: budget.nudged };
    const last = result.steps.at(-1);
    if (last && last.toolCalls.length > 0) {
      // The loop ended on a tool call: the step budget ran out before the model finished.
      return {
        text: HANDOVER,
        stoppedBecause: `step budget of ${budget.budget.maxSteps} spent`,
        steps: budget.steps,
        calls,
        nudged: budget.nudged,
      };
    }
    messages = [...messages, ...result.response.messages];
    if (budget.shouldNudge(result.text, Object.keys(tools))) {
      messages.push({ role: "user", content: NUDGE });
      continue;
    }
    return { text: result.text, stoppedBecause: null, steps: budget.steps, calls, nudged: budget.nudged };
  }
}
