// The AI SDK's documented mock model (ai/test) answering scripted turns (examples/shared/scripted-vendor.ts):
// the same conversation the vendor-SDK examples get from the scripted HTTP endpoint. Used by
// tests/integration/examples.test.ts and by `main.ts --scripted`. Every prompt it saw is kept.
import { MockLanguageModelV4 } from "ai/test";
import { turnFor, type ScriptedStep } from "../shared/scripted-vendor";

export function scriptedModel(steps: ScriptedStep[]) {
  const prompts: unknown[] = [];
  let i = 0;
  const model = new MockLanguageModelV4({
    doGenerate: async (options) => {
      prompts.push(options.prompt);
      const turn = turnFor(i < steps.length ? steps[i++]! : steps[steps.length - 1]!, JSON.stringify(options.prompt));
      const content = [
        ...(turn.text ? [{ type: "text" as const, text: turn.text }] : []),
        ...(turn.calls ?? []).map((c, n) => ({
          type: "tool-call" as const,
          toolCallId: `tc_${i}_${n}`,
          toolName: c.name,
          input: JSON.stringify(c.args),
        })),
      ];
      return {
        content,
        finishReason: { unified: turn.calls?.length ? ("tool-calls" as const) : ("stop" as const), raw: undefined },
        usage: {
          inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 1, text: 1, reasoning: 0 },
        },
        warnings: [],
      };
    },
  });
  return { model, prompts };
}
