// A tiny scripted chat model for LangGraph (a BaseChatModel from @langchain/core): each call answers the next scripted
// turn (examples/shared/scripted-vendor.ts) as an AIMessage with tool_calls, so the graph runs with no model vendor.
// Every prompt it was given is kept, for the test to read.
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { turnFor, type ScriptedStep } from "../shared/scripted-vendor";

export class ScriptedChatModel extends BaseChatModel {
  readonly prompts: BaseMessage[][] = [];
  private i = 0;

  constructor(private readonly steps: ScriptedStep[]) {
    super({});
  }

  _llmType(): string {
    return "scripted";
  }

  /** The tools are the graph's business: the script names them. */
  override bindTools(): this {
    return this;
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.prompts.push(messages);
    const step = this.i < this.steps.length ? this.steps[this.i++]! : this.steps[this.steps.length - 1]!;
    const turn = turnFor(step, JSON.stringify(messages.map((m) => m.content)));
    const message = new AIMessage({
      content: turn.text ?? "",
      tool_calls: (turn.calls ?? []).map((c, n) => ({
        id: `lc_${this.i}_${n}`,
        name: c.name,
        args: c.args,
        type: "tool_call" as const,
      })),
    });
    return { generations: [{ text: turn.text ?? "", message }] };
  }
}
