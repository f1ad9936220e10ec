// The OpenAI Agents SDK (@openai/agents) with the gateway's tools. The SDK runs the loop; each tool's
// `execute` posts the model's call to the gateway in the Responses shape and returns the answer's JSON
// string as the tool output — errors included, so the model reads them and recovers. A tool name the model
// invents never reaches an `execute`: the SDK would throw ModelBehaviorError ("Tool … not found") and end the
// run, so the runner asks it to return that error to the model instead (toolNotFoundBehavior), and the
// message it returns is the gateway's own unknown_tool answer (closest names, audited in the trace).
import { Agent, OpenAIProvider, Runner, tool, type AgentInputItem, type FunctionTool } from "@openai/agents";
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
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  strict: boolean;
};
type Answer = { type: "function_call_output"; call_id: string; output: string };

export const INSTRUCTIONS = SUPPORT_INSTRUCTIONS;

/** Replaces the output of all but the newest `keep` function results in the model's input. */
export function clearOldToolResults(items: AgentInputItem[], keep: number): AgentInputItem[] {
  const positions = items.flatMap((item, i) => (item.type === "function_call_result" ? [i] : []));
  const clear = new Set(positions.slice(0, Math.max(0, positions.length - keep)));
  return items.map((item, i) =>
    clear.has(i) && item.type === "function_call_result" ? { ...item, output: CLEARED } : item,
  );
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

  /** Posts one call to the gateway and counts its answer against the harness budget. */
  const callGateway = async (name: string, callId: string, args: string): Promise<string> => {
    const answer = await postToolCall<Answer>(opts.gateway, {
      type: "function_call",
      call_id: callId,
      name,
      arguments: args,
    });
    const code = codeOf(answer.output);
    calls.push({ name, code });
    stop ??= budget.afterTool(code, code !== "ok" && code !== "approval_required" && code !== "result_pending");
    return answer.output;
  };

  const tools: FunctionTool[] = served.map(
    (t) =>
      tool({
        name: t.name,
        description: t.description,
        // The gateway serves OpenAI's strict subset already; the server validates the rest.
        parameters: t.parameters as never,
        strict: true,
        execute: async (args, _ctx, details) =>
          callGateway(t.name, details?.toolCall?.callId ?? `call_${calls.length + 1}`, JSON.stringify(args)),
      }) as FunctionTool,
  );

  const agent = new Agent({
    name: "Support agent",
    instructions: INSTRUCTIONS,
    model: opts.model,
    tools,
    // After each round of tool calls: stop here (hand over) when the harness budget says so.
    toolUseBehavior: () =>
      stop
        ? { isFinalOutput: true, isInterrupted: undefined, finalOutput: HANDOVER }
        : { isFinalOutput: false, isInterrupted: undefined },
  });
  const runner = new Runner({
    modelProvider: opts.provider,
    tracingDisabled: true,
    // An invented tool name goes back to the model as a tool output (harness rule 1), not as an exception. The
    // SDK hands the formatter the name and call id only, so the gateway is asked with empty arguments: it
    // answers unknown_tool (with the closest names) whatever the arguments were.
    toolNotFoundBehavior: "return_error_to_model",
    toolErrorFormatter: async (error) =>
      error.kind === "tool_not_found" ? callGateway(error.toolName, error.callId, "{}") : undefined,
    callModelInputFilter: ({ modelData }) => ({
      ...modelData,
      input: clearOldToolResults(modelData.input, budget.budget.keepToolResults),
    }),
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
    if (stop)
      return {
        text: HANDOVER,
        stoppedBecause: stop,
        steps: budget.steps,
        calls,
        nudged: budget.nudged,
        history: result.history,
      };
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
