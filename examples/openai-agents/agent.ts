// The OpenAI Agents SDK (@openai/agents) with the gateway's tools. The SDK runs the loop; each tool's
// `execute` posts the model's call to the gateway in the Responses shape and returns the answer's JSON
// string as the tool output — errors included, so the model reads them and recovers.
import { Agent, OpenAIProvider, Runner, tool, type AgentInputItem, type FunctionTool } from "@openai/agents";
import { codeOf, listGatewayTools, postToolCall, type GatewayConfig } from "../shared/gateway";
import { BudgetTracker, CLEARED, HANDOVER, NUDGE, defaultBudget, type AgentRun, type Budget } from "../shared/harness";

type ServedTool = { type: "function"; name: string; description: string; parameters: Record<string, unknown>; strict: boolean };
type Answer = { type: "function_call_output"; call_id: string; output: string };

export const INSTRUCTIONS =
  "You are a support agent for an online shop. Use the tools to look up the customer's orders and to prepare refunds; " +
  "a prepared refund waits for a human reviewer, so tell the customer it awaits review. If a tool answers an error, read it and fix the call, " +
  "or ask the customer. Never invent amounts or customer data.";

/** Replaces the output of all but the newest `keep` function results in the model's input. */
export function clearOldToolResults(items: AgentInputItem[], keep: number): AgentInputItem[] {
  const positions = items.flatMap((item, i) => (item.type === "function_call_result" ? [i] : []));
  const clear = new Set(positions.slice(0, Math.max(0, positions.length - keep)));
  return items.map((item, i) => (clear.has(i) && item.type === "function_call_result" ? { ...item, output: CLEARED } : item));
}

export async function runOpenAIAgent(opts: {
  /** An OpenAIProvider (its baseURL may point at any Responses-compatible endpoint). */
  provider: OpenAIProvider;
  gateway: GatewayConfig;
  model: string;
  userMessage: string;
  budget?: Budget;
}): Promise<AgentRun & { history: AgentInputItem[] }> {
  const budget = new BudgetTracker(opts.budget ?? defaultBudget);
  const served = await listGatewayTools<ServedTool>(opts.gateway, "openai");
  const calls: AgentRun["calls"] = [];
  let stop: string | null = null;

  const tools: FunctionTool[] = served.map(
    (t) =>
      tool({
        name: t.name,
        description: t.description,
        // The gateway serves OpenAI's strict subset already; the server validates the rest.
        parameters: t.parameters as never,
        strict: true,
        execute: async (args, _ctx, details) => {
          const callId = details?.toolCall?.callId ?? `call_${calls.length + 1}`;
          const answer = await postToolCall<Answer>(opts.gateway, { type: "function_call", call_id: callId, name: t.name, arguments: JSON.stringify(args) });
          const code = codeOf(answer.output);
          calls.push({ name: t.name, code });
          stop ??= budget.afterTool(code, code !== "ok" && code !== "approval_required" && code !== "result_pending");
          return answer.output;
        },
      }) as FunctionTool,
  );

  const agent = new Agent({
    name: "Support agent",
    instructions: INSTRUCTIONS,
    model: opts.model,
    tools,
    // After each round of tool calls: stop here (hand over) when the harness budget says so.
    toolUseBehavior: () =>
      stop ? { isFinalOutput: true, isInterrupted: undefined, finalOutput: HANDOVER } : { isFinalOutput: false, isInterrupted: undefined },
  });
  const runner = new Runner({
    modelProvider: opts.provider,
    tracingDisabled: true,
    callModelInputFilter: ({ modelData }) => ({ ...modelData, input: clearOldToolResults(modelData.input, budget.budget.keepToolResults) }),
  });

  let input: AgentInputItem[] = [{ role: "user", content: opts.userMessage }];
  for (;;) {
    let result;
    try {
      result = await runner.run(agent, input, { maxTurns: budget.budget.maxSteps - budget.steps });
    } catch (error) {
      if (error instanceof Error && error.name === "MaxTurnsExceededError") {
        return {
          text: HANDOVER,
          stoppedBecause: `step budget of ${budget.budget.maxSteps} spent`,
          steps: budget.budget.maxSteps,
          calls,
          nudged: budget.nudged,
          history: input,
        };
      }
      throw error;
    }
    budget.steps += result.rawResponses.length;
    const text = String(result.finalOutput ?? "");
    if (stop) return { text: HANDOVER, stoppedBecause: stop, steps: budget.steps, calls, nudged: budget.nudged, history: result.history };
    if (
      budget.shouldNudge(
        text,
        served.map((t) => t.name),
      ) &&
      budget.steps < budget.budget.maxSteps
    ) {
      input = [...result.history, { role: "user", content: NUDGE }];
      continue;
    }
    return { text, stoppedBecause: null, steps: budget.steps, calls, nudged: budget.nudged, history: result.history };
  }
}
