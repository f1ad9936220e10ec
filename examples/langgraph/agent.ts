// Recipe: LangGraph JS's human-in-the-loop — `interrupt()` in a node, a checkpointer, `Command({ resume })` — with
// the gateway's decision as the resume value. The graph:
//   agent ──tool calls──▶ tools (read-only gateway tools) ──▶ agent
//         ──a prepare_* call──▶ prepare (sends that exact call to the gateway) ──approval_required──▶ decide
//   decide: interrupt({ the proposal }) … resumed with the decision → reads the outcome from the gateway ──▶ agent
// `prepare` and `decide` are separate nodes on purpose: a resumed node runs again from its start, and the prepare it
// would repeat must not (the checkpoint keeps prepare's result). The run returns at the interrupt — nothing is held
// open while a person decides — and is resumed only from a verified decision webhook (examples/shared/
// decision-webhooks.ts), once per proposal. Approved: `decide` reads the executed outcome (get_action_status,
// waiting while the gateway's worker pays); not approved: the gateway's own answer with the reviewer's message. The
// model can only prepare: nothing it sends carries anything out. MemorySaver keeps the checkpoints in memory (a
// process that must survive restarts uses a persistent checkpointer, e.g. @langchain/langgraph-checkpoint-postgres).
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import {
  Annotation,
  Command,
  END,
  MemorySaver,
  MessagesAnnotation,
  START,
  StateGraph,
  interrupt,
} from "@langchain/langgraph";
import { listGatewayTools, postToolCall, type GatewayConfig } from "../shared/gateway";
import { SUPPORT_INSTRUCTIONS } from "../shared/harness";
import { decisionOf, type Decision, type DecisionEvent } from "../shared/decision-webhooks";
import {
  callGateway,
  finalOutcome,
  pendingMessage,
  pendingOf,
  type Envelope,
  type PendingAction,
  type RecipeRun,
} from "../shared/recipes";

type ServedTool = { name: string; description: string; input_schema: Record<string, unknown> };

/** Tools that make a proposal: the ones a person must decide on. */
const gated = (name: string) => name.startsWith("prepare_");

const State = Annotation.Root({
  ...MessagesAnnotation.spec,
  /** The proposal awaiting a person, and the model's call it answers. */
  pending: Annotation<{ action: PendingAction; callId: string } | null>({ reducer: (_, b) => b, default: () => null }),
  outcome: Annotation<Envelope | null>({ reducer: (_, b) => b, default: () => null }),
});
type S = typeof State.State;

const lastAi = (messages: BaseMessage[]) => messages.at(-1) as AIMessage;

export type Turn =
  | ({ status: "awaiting_decision"; proposalId: string; threadId: string } & RecipeRun)
  | ({ status: "done"; threadId: string } & RecipeRun);

export async function langGraphApprovalAgent(opts: {
  model: BaseChatModel;
  gateway: GatewayConfig;
  onCustomerMessage?: (threadId: string, text: string) => void;
}) {
  const served = await listGatewayTools<ServedTool>(opts.gateway, "anthropic");
  const model = opts.model.bindTools!(
    served.map((t) => ({ name: t.name, description: t.description, schema: t.input_schema })),
  );

  const ask = (name: string, id: string, args: unknown) =>
    postToolCall<{ content: string }>(opts.gateway, { type: "tool_use", id, name, input: args });

  const graph = new StateGraph(State)
    .addNode("agent", async (s: S) => ({
      messages: [await model.invoke([{ role: "system", content: SUPPORT_INSTRUCTIONS }, ...s.messages])],
    }))
    .addNode("tools", async (s: S) => ({
      messages: await Promise.all(
        (lastAi(s.messages).tool_calls ?? []).map(
          async (c) => new ToolMessage({ tool_call_id: c.id!, content: (await ask(c.name, c.id!, c.args)).content }),
        ),
      ),
    }))
    .addNode("prepare", async (s: S) => {
      const calls = lastAi(s.messages).tool_calls ?? [];
      const messages: ToolMessage[] = [];
      let pending: S["pending"] = null;
      for (const c of calls) {
        if (!gated(c.name) || pending) {
          const content = gated(c.name)
            ? "Prepare one action at a time: this one was not prepared."
            : (await ask(c.name, c.id!, c.args)).content;
          messages.push(new ToolMessage({ tool_call_id: c.id!, content }));
          continue;
        }
        const answer = (await ask(c.name, c.id!, c.args)).content;
        const action = pendingOf(JSON.parse(answer) as Envelope);
        // Refused at once (unknown order, cool-down…): the model reads the gateway's answer.
        if (action) pending = { action, callId: c.id! };
        else messages.push(new ToolMessage({ tool_call_id: c.id!, content: answer }));
      }
      return { messages, pending };
    })
    .addNode("decide", async (s: S) => {
      const { action, callId } = s.pending!;
      // Pauses the run here; resumed with Command({ resume: decision }) once the decision webhook arrived.
      const decision = interrupt<PendingAction, Decision>(action);
      const outcome = decision.approved
        ? await finalOutcome(opts.gateway, action.proposal_id)
        : await callGateway(opts.gateway, "get_action_status", { proposal_id: action.proposal_id });
      return {
        messages: [new ToolMessage({ tool_call_id: callId, content: JSON.stringify(outcome) })],
        pending: null,
        outcome,
      };
    })
    .addEdge(START, "agent")
    .addConditionalEdges("agent", (s: S) => {
      const calls = lastAi(s.messages).tool_calls ?? [];
      if (calls.length === 0) return END;
      return calls.some((c) => gated(c.name)) ? "prepare" : "tools";
    })
    .addEdge("tools", "agent")
    .addConditionalEdges("prepare", (s: S) => (s.pending ? "decide" : "agent"))
    .addEdge("decide", "agent")
    .compile({ checkpointer: new MemorySaver() });

  /** Threads paused on a proposal, by proposal id: a decision resumes its thread once. */
  const waiting = new Map<string, { threadId: string; action: PendingAction }>();
  const told = new Map<string, string[]>();

  async function settle(threadId: string, reviewed: PendingAction | null): Promise<Turn> {
    const tell = (text: string) => {
      told.set(threadId, [...(told.get(threadId) ?? []), text]);
      opts.onCustomerMessage?.(threadId, text);
    };
    const snapshot = await graph.getState({ configurable: { thread_id: threadId } });
    const paused = snapshot.tasks.flatMap((t) => t.interrupts).at(0);
    if (paused) {
      const action = paused.value as PendingAction;
      waiting.set(action.proposal_id, { threadId, action });
      tell(pendingMessage(action));
      return {
        status: "awaiting_decision",
        proposalId: action.proposal_id,
        threadId,
        told: told.get(threadId)!,
        reviewed: action,
        outcome: null,
        text: "",
      };
    }
    const values = snapshot.values as S;
    const last = values.messages.at(-1);
    const text = typeof last?.content === "string" ? last.content : JSON.stringify(last?.content ?? "");
    tell(text);
    return { status: "done", threadId, told: told.get(threadId)!, reviewed, outcome: values.outcome, text };
  }

  return {
    graph,
    /** A customer's message on a conversation (thread): runs until the model answers or the graph interrupts. */
    async start(threadId: string, userMessage: string): Promise<Turn> {
      await graph.invoke(
        { messages: [{ role: "user", content: userMessage }] },
        { configurable: { thread_id: threadId }, recursionLimit: 12 },
      );
      return settle(threadId, null);
    },
    /** A verified decision webhook: resumes the thread waiting on that proposal, or null when none is. */
    async decide(event: DecisionEvent): Promise<Turn | null> {
      const decision = decisionOf(event);
      const paused = waiting.get(event.data.proposal_id);
      if (!decision || !paused) return null;
      waiting.delete(event.data.proposal_id);
      await graph.invoke(new Command({ resume: decision }), {
        configurable: { thread_id: paused.threadId },
        recursionLimit: 12,
      });
      return settle(paused.threadId, paused.action);
    },
    /** Whether a thread is paused on this proposal. */
    isWaiting: (proposalId: string) => waiting.has(proposalId),
  };
}
