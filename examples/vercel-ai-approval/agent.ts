// Recipe: the AI SDK's tool approval (`needsApproval: true`) answered from the gateway's decision. The gateway's
// prepare tools (prepare_refund, …) need approval, so generateText stops with a `tool-approval-request` instead of
// running them. Then the harness (not the model):
//  1. sends that exact call to the gateway, which prepares the proposal and answers approval_required with the
//     amount and recipient a person will review — the customer is told exactly that;
//  2. waits for the decision with get_action_status and wait_seconds (held until the proposal changes; waiting on an
//     unchanged proposal spends none of the conversation's budget) — no loop of its own beyond re-waiting;
//  3. answers the request with a `tool-approval-response`: approved only when the gateway says a person approved
//     (approved, being carried out, or done); otherwise denied, with the gateway's answer (the reviewer's message
//     for the customer) as the reason the model reads;
//  4. approved: the SDK runs the tool's `execute`, which only *reads* the outcome (get_action_status, waiting while
//     the gateway's worker pays the refund). Nothing the model sends can carry anything out.
// A harness that must not hold a call open takes the decision webhook instead (examples/openai-agents-approval).
import { generateText, jsonSchema, stepCountIs, tool, type LanguageModel, type ModelMessage, type ToolSet } from "ai";
import { listGatewayTools, postToolCall, type GatewayConfig } from "../shared/gateway";
import { HANDOVER, SUPPORT_INSTRUCTIONS } from "../shared/harness";
import {
  callGateway,
  finalOutcome,
  pendingMessage,
  pendingOf,
  type Envelope,
  type PendingAction,
  type RecipeRun,
} from "../shared/recipes";

type ServedTool = {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown>; strict: boolean };
};

/** Tools that make a proposal: the ones a person must decide on. */
const gated = (name: string) => name.startsWith("prepare_");

/** What a person decided, as the gateway says: approved once it is approved, being carried out or done. */
const APPROVED = new Set(["ok", "result_pending"]);

/**
 * Waits for the decision on a proposal: get_action_status with wait_seconds 25, again while it still awaits a person
 * (at most `maxWaits` times). The answer that ended the wait, or the last pending one.
 */
export async function awaitDecision(cfg: GatewayConfig, proposalId: string, maxWaits: number): Promise<Envelope> {
  let answer: Envelope = { code: "approval_required" };
  for (let i = 0; i < maxWaits && answer.code === "approval_required"; i++)
    answer = await callGateway(cfg, "get_action_status", { proposal_id: proposalId, wait_seconds: 25 });
  return answer;
}

export async function runVercelApprovalAgent(opts: {
  model: LanguageModel;
  gateway: GatewayConfig;
  userMessage: string;
  onCustomerMessage?: (text: string) => void;
  /** How many 25-second waits for a person before the run hands over (the proposal stays for the dashboard). */
  maxWaits?: number;
  maxSteps?: number;
}): Promise<RecipeRun & { decisions: { approved: boolean; code: string }[] }> {
  const served = await listGatewayTools<ServedTool>(opts.gateway, "openai_chat");
  const told: string[] = [];
  const tell = (text: string) => {
    told.push(text);
    opts.onCustomerMessage?.(text);
  };
  /** Approved calls, by tool call id → proposal id: only these let a gated tool's execute run. */
  const approved = new Map<string, string>();
  const decisions: { approved: boolean; code: string }[] = [];
  let reviewed: PendingAction | null = null;
  let outcome: Envelope | null = null;

  const tools: ToolSet = Object.fromEntries(
    served.map(({ function: f }) => [
      f.name,
      tool({
        description: f.description,
        inputSchema: jsonSchema<Record<string, unknown>>(f.parameters as never),
        strict: f.strict,
        needsApproval: gated(f.name),
        execute: async (args: Record<string, unknown>, { toolCallId }): Promise<string> => {
          if (!gated(f.name)) {
            const answer = await postToolCall<{ content: string }>(opts.gateway, {
              id: toolCallId,
              type: "function",
              function: { name: f.name, arguments: JSON.stringify(args) },
            });
            return answer.content;
          }
          // Runs only after an approval the gateway reported; even then it reads what the gateway did.
          const proposalId = approved.get(toolCallId);
          if (!proposalId) throw new Error(`no decision for ${f.name} call ${toolCallId}`);
          outcome = await finalOutcome(opts.gateway, proposalId);
          return JSON.stringify(outcome);
        },
      }),
    ]),
  );

  let messages: ModelMessage[] = [{ role: "user", content: opts.userMessage }];
  for (let round = 0; round < (opts.maxSteps ?? 6); round++) {
    const result = await generateText({
      model: opts.model,
      system: SUPPORT_INSTRUCTIONS,
      tools,
      messages,
      stopWhen: stepCountIs(opts.maxSteps ?? 6),
    });
    messages = [...messages, ...result.responseMessages];
    const requests = result.content.filter((p) => p.type === "tool-approval-request");
    if (requests.length === 0) {
      tell(result.text);
      return { told, reviewed, outcome, text: result.text, decisions };
    }
    const responses = [];
    for (const [i, request] of requests.entries()) {
      const { toolCallId, toolName } = request.toolCall;
      const input: unknown = request.toolCall.input;
      if (i > 0) {
        // One action at a time: any further prepare in the same step goes back to the model unprepared.
        responses.push({
          type: "tool-approval-response" as const,
          approvalId: request.approvalId,
          approved: false,
          reason: "Prepare one action at a time: this one was not prepared.",
        });
        continue;
      }
      const prepared = await postToolCall<{ content: string }>(opts.gateway, {
        id: toolCallId,
        type: "function",
        function: { name: toolName, arguments: JSON.stringify(input) },
      });
      const answer = JSON.parse(prepared.content) as Envelope;
      const pending = pendingOf(answer);
      let decided = answer;
      if (pending) {
        reviewed = pending;
        tell(pendingMessage(pending));
        decided = await awaitDecision(opts.gateway, pending.proposal_id, opts.maxWaits ?? 40);
        if (decided.code === "approval_required") {
          tell(HANDOVER);
          return { told, reviewed, outcome: decided, text: HANDOVER, decisions };
        }
      }
      // (A prepare the kind's policy lets through without a person answers ok / result_pending at once.)
      const proposalId = pending?.proposal_id ?? (answer.result?.proposal_id as string | undefined);
      const yes = proposalId !== undefined && APPROVED.has(decided.code);
      decisions.push({ approved: yes, code: decided.code });
      if (yes) approved.set(toolCallId, proposalId);
      else outcome = decided;
      responses.push({
        type: "tool-approval-response" as const,
        approvalId: request.approvalId,
        approved: yes,
        // Denied: the model reads the gateway's own answer (the rejection and the reviewer's message, or the refusal).
        ...(yes ? {} : { reason: JSON.stringify(decided) }),
      });
    }
    messages.push({ role: "tool", content: responses });
  }
  tell(HANDOVER);
  return { told, reviewed, outcome, text: HANDOVER, decisions };
}
