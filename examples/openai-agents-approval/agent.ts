// Recipe: the OpenAI Agents SDK's human-in-the-loop (`needsApproval`, a resumable RunState) whose approval is the
// gateway's decision. The gateway's prepare tools (prepare_refund, …) are function tools with `needsApproval:
// true`, so the SDK stops the run before their `execute` ever runs. When it does:
//  1. the harness (not the model) sends that exact call to the gateway: it prepares the proposal and answers
//     approval_required with the amount and recipient a person will review — the customer is told exactly that;
//  2. the run state is serialised (`result.state.toString()`) and saved with the proposal id, and the run returns:
//     nothing is held open while a person decides (minutes, hours);
//  3. when the channel's decision webhook arrives — verified with the Standard Webhooks signature
//     (examples/shared/decision-webhooks.ts); nothing else can resume a run — the saved state is taken (once: a
//     retried delivery finds nothing), the interruption is approved or rejected as the reviewer decided, and the
//     run resumes;
//  4. approved: the tool's `execute` runs now, and it only *reads* the outcome (get_action_status, waiting while the
//     gateway's worker pays the refund). Rejected: the model gets the gateway's rejection (with the reviewer's
//     message for the customer) as the tool's output.
// The model can never carry anything out: preparing is all a tool call can do, the gateway executes only what a
// person approved against the hash, and a local "approve" only lets the tool read what the gateway did.
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  Agent,
  OpenAIProvider,
  RunState,
  Runner,
  tool,
  type FunctionTool,
  type RunToolApprovalItem,
} from "@openai/agents";
import { listGatewayTools, postToolCall, type GatewayConfig } from "../shared/gateway";
import { SUPPORT_INSTRUCTIONS } from "../shared/harness";
import { decisionOf, type DecisionEvent } from "../shared/decision-webhooks";
import {
  callGateway,
  finalOutcome,
  pendingMessage,
  pendingOf,
  type Envelope,
  type PendingAction,
  type RecipeRun,
} from "../shared/recipes";

type ServedTool = { name: string; description: string; parameters: Record<string, unknown> };
type Answer = { output: string };
type FunctionCall = { type: "function_call"; callId: string; name: string; arguments: string };

/** What settle reads of a run's result (first run and resumed runs alike). */
type Result = {
  interruptions: RunToolApprovalItem[];
  finalOutput?: unknown;
  state: RunState<undefined, Agent>;
};

/** A paused run, saved until its decision arrives. */
export type SavedRun = { state: string; callId: string; pending: PendingAction; told: string[] };

/** Where paused runs wait. `take` returns a run once and forgets it, so one decision resumes it once. */
export type RunStore = {
  save: (proposalId: string, run: SavedRun) => Promise<void>;
  take: (proposalId: string) => Promise<SavedRun | null>;
  has: (proposalId: string) => Promise<boolean>;
};

/** A directory of JSON files, one per waiting proposal: a restarted process resumes what the last one saved. */
export function fileRunStore(dir: string): RunStore {
  const file = (id: string) => join(dir, `${id.replace(/[^A-Za-z0-9_-]/g, "_")}.json`);
  return {
    save: async (id, run) => {
      await mkdir(dir, { recursive: true });
      await writeFile(`${file(id)}.tmp`, JSON.stringify(run));
      await rename(`${file(id)}.tmp`, file(id));
    },
    take: async (id) => {
      // Renaming first makes the take atomic: of two deliveries of one decision, one gets the run.
      const claimed = `${file(id)}.${process.pid}.${Date.now()}.taken`;
      try {
        await rename(file(id), claimed);
      } catch {
        return null;
      }
      const run = JSON.parse(await readFile(claimed, "utf8")) as SavedRun;
      await rm(claimed, { force: true });
      return run;
    },
    has: async (id) =>
      readFile(file(id)).then(
        () => true,
        () => false,
      ),
  };
}

/** What one step of the conversation ended with. */
export type Turn = ({ status: "awaiting_decision"; proposalId: string } & RecipeRun) | ({ status: "done" } & RecipeRun);

/** Tools that make a proposal: the ones a person must decide on. */
const gated = (name: string) => name.startsWith("prepare_");

export async function openAIApprovalAgent(opts: {
  provider: OpenAIProvider;
  gateway: GatewayConfig;
  model: string;
  store: RunStore;
  onCustomerMessage?: (text: string) => void;
  maxTurns?: number;
}) {
  const served = await listGatewayTools<ServedTool>(opts.gateway, "openai");
  /** Calls whose decision was an approval, by call id → proposal id: only these let a gated tool run. */
  const approved = new Map<string, string>();
  const outcomes = new Map<string, Envelope>();

  const tools: FunctionTool[] = served.map(
    (t) =>
      tool({
        name: t.name,
        description: t.description,
        parameters: t.parameters as never,
        strict: true,
        needsApproval: gated(t.name),
        execute: async (args, _ctx, details) => {
          const callId = details?.toolCall?.callId ?? "";
          if (!gated(t.name)) {
            const answer = await postToolCall<Answer>(opts.gateway, {
              type: "function_call",
              call_id: callId,
              name: t.name,
              arguments: JSON.stringify(args),
            });
            return answer.output;
          }
          // Reached only after an approval that came from a verified decision webhook. Even so, this reads what the
          // gateway did; it has no way to do anything itself.
          const proposalId = approved.get(callId);
          if (!proposalId) throw new Error(`no decision for ${t.name} call ${callId}`);
          const outcome = await finalOutcome(opts.gateway, proposalId);
          outcomes.set(callId, outcome);
          return JSON.stringify(outcome);
        },
      }) as FunctionTool,
  );
  const agent: Agent = new Agent({
    name: "Support agent",
    instructions: SUPPORT_INSTRUCTIONS,
    model: opts.model,
    tools,
  });
  const runner = new Runner({ modelProvider: opts.provider, tracingDisabled: true });

  /** Runs on until the model answers, or a gated call must wait for a person (then saves the run and returns). */
  async function settle(result: Result, told: string[]): Promise<Turn> {
    const tell = (text: string) => {
      told.push(text);
      opts.onCustomerMessage?.(text);
    };
    for (;;) {
      const [first, ...others] = result.interruptions;
      if (!first) {
        const text =
          typeof result.finalOutput === "string" ? result.finalOutput : JSON.stringify(result.finalOutput ?? "");
        tell(text);
        const outcome = [...outcomes.values()].at(-1) ?? null;
        return { status: "done", told, reviewed: null, outcome, text };
      }
      // One action at a time: any further prepare in the same turn goes back to the model unprepared.
      for (const other of others)
        result.state.reject(other, { message: "Prepare one action at a time: this one was not prepared." });
      const call = first.rawItem as FunctionCall;
      const answer = await postToolCall<Answer>(opts.gateway, {
        type: "function_call",
        call_id: call.callId,
        name: call.name,
        arguments: call.arguments,
      });
      const pending = pendingOf(JSON.parse(answer.output) as Envelope);
      if (!pending) {
        // Refused at once (unknown order, cool-down after a rejection, …): the model reads the gateway's answer.
        result.state.reject(first, { message: answer.output });
        result = await runner.run(agent, result.state, { maxTurns: opts.maxTurns ?? 6 });
        continue;
      }
      tell(pendingMessage(pending));
      await opts.store.save(pending.proposal_id, {
        state: result.state.toString(),
        callId: call.callId,
        pending,
        told,
      });
      return {
        status: "awaiting_decision",
        proposalId: pending.proposal_id,
        told,
        reviewed: pending,
        outcome: null,
        text: "",
      };
    }
  }

  return {
    /** A customer's message: runs until the model answers or the run waits for a person. */
    async start(userMessage: string): Promise<Turn> {
      const result = await runner.run(agent, [{ role: "user", content: userMessage }], {
        maxTurns: opts.maxTurns ?? 6,
      });
      return settle(result, []);
    },
    /**
     * A verified decision webhook: resumes the run waiting on that proposal, or null when none is (another
     * conversation's proposal, an event that is not a decision, or a decision already handled).
     */
    async decide(event: DecisionEvent): Promise<Turn | null> {
      const decision = decisionOf(event);
      if (!decision) return null;
      const saved = await opts.store.take(event.data.proposal_id);
      if (!saved) return null;
      const state = await RunState.fromString<undefined, Agent>(agent, saved.state);
      const item = state
        .getInterruptions()
        .find((i: RunToolApprovalItem) => (i.rawItem as FunctionCall).callId === saved.callId);
      if (!item) throw new Error(`the saved run has no interruption for call ${saved.callId}`);
      if (decision.approved) {
        approved.set(saved.callId, saved.pending.proposal_id);
        state.approve(item);
      } else {
        // The gateway's own answer (with the reviewer's message for the customer) is what the model reads.
        const answer = await callGateway(opts.gateway, "get_action_status", { proposal_id: saved.pending.proposal_id });
        outcomes.set(saved.callId, answer);
        state.reject(item, { message: JSON.stringify(answer) });
      }
      const result = await runner.run(agent, state, { maxTurns: opts.maxTurns ?? 6 });
      const turn = await settle(result, saved.told);
      return turn.status === "done" ? { ...turn, reviewed: saved.pending } : turn;
    },
  };
}
