// What the "waiting for a human" recipes share (examples/README.md "Waiting for a human: recipes"): one gateway call
// read as its envelope, what the customer is told while a person decides (the exact amount and recipient the
// reviewer sees, from the gateway's approval_required answer — never from the model), the final outcome read from
// the gateway, and the scripted model's replies. The outcome of an approved action is always read from the
// gateway (get_action_status): a recipe never decides locally that something was done.
import { postToolCall, type GatewayConfig } from "./gateway";
import { lastAnswered, lastCode, type ScriptedStep, type ScriptedTurn } from "./scripted-vendor";

export type Envelope = {
  code: string;
  result?: Record<string, unknown>;
  error?: { message: string; reason?: string | null } & Record<string, unknown>;
  traceId?: string;
};

let calls = 0;

/** One tool call to the gateway (Anthropic shape), its answer as the envelope. */
export async function callGateway(cfg: GatewayConfig, name: string, input: Record<string, unknown>): Promise<Envelope> {
  const answer = await postToolCall<{ content: string }>(cfg, {
    type: "tool_use",
    id: `toolu_recipe_${Date.now().toString(36)}_${++calls}`,
    name,
    input,
  });
  return JSON.parse(answer.content) as Envelope;
}

/** What a person reviews: the proposal as the gateway hashed it (prepare's approval_required result). */
export type PendingAction = {
  proposal_id: string;
  order_id: string;
  amount: { minor: number; currency: string };
  recipient: { kind: string; display: string; holder: string | null };
  /** The dashboard page of the proposal (approval_required answers only). */
  review_url?: string;
};

/** The action of an approval_required answer, or null for any other answer. */
export function pendingOf(envelope: Envelope): PendingAction | null {
  if (envelope.code !== "approval_required" || !envelope.result) return null;
  const r = envelope.result as Record<string, unknown> & { action?: Record<string, unknown> };
  // prepare_refund answers the amount and recipient at the top; get_action_status inside `action`.
  const a = { ...r.action, ...r } as unknown as PendingAction;
  return {
    proposal_id: a.proposal_id,
    order_id: a.order_id,
    amount: a.amount,
    recipient: a.recipient,
    review_url: a.review_url,
  };
}

/** The action an answer of get_action_status (or a task's result) is about, whatever its outcome. */
export function actionIn(envelope: Envelope | null): PendingAction | null {
  const body = (envelope?.result ?? envelope?.error) as
    { proposal_id?: string; action?: Omit<PendingAction, "proposal_id"> } | undefined;
  if (!body?.proposal_id || !body.action) return null;
  const { order_id, amount, recipient } = body.action;
  return { proposal_id: body.proposal_id, order_id, amount, recipient };
}

export const money = (a: { minor: number; currency: string }) => `${(a.minor / 100).toFixed(2)} ${a.currency}`;

/** What the customer is told while a person decides: exactly what the reviewer sees. */
export const pendingMessage = (p: PendingAction) =>
  `Your refund of ${money(p.amount)} to ${p.recipient.display}${p.recipient.holder ? ` (${p.recipient.holder})` : ""} ` +
  `for order ${p.order_id} is prepared and now awaits a person's review. I will tell you as soon as it is decided.`;

/** Codes that mean "not over yet": a person has not decided, or the approved action is still being carried out. */
export const OPEN = new Set(["approval_required", "result_pending"]);

/**
 * Where the action stands once it is over, from the gateway: get_action_status with wait_seconds (held until the
 * proposal changes, never a tight poll), again while it is still open — at most `maxWaits` times, then the last
 * open answer (the customer is told it is still under way).
 */
export async function finalOutcome(cfg: GatewayConfig, proposalId: string, maxWaits = 4): Promise<Envelope> {
  let answer = await callGateway(cfg, "get_action_status", { proposal_id: proposalId, wait_seconds: 0 });
  for (let i = 0; i < maxWaits && OPEN.has(answer.code); i++)
    answer = await callGateway(cfg, "get_action_status", { proposal_id: proposalId, wait_seconds: 25 });
  return answer;
}

/** The scripted model's last turn: what it tells the customer from the last outcome it read. */
export function replyToOutcome(seen: string): ScriptedTurn {
  const code = lastCode(seen);
  // (Any "status" field would do: the vendors' own items carry one too, so the refund's is looked for by value.)
  if (code === "ok" && /status\\*"\s*:\s*\\*"succeeded/.test(seen))
    return { text: "Your refund was approved and has been paid back to your card." };
  if (code === "rejected")
    return {
      text: `A reviewer could not approve your refund. Reason: ${lastAnswered(seen, "reason") ?? "none given"}.`,
    };
  if (code && OPEN.has(code)) return { text: "Your refund is still being handled; I will let you know." };
  return { text: `Your refund could not be completed (${code ?? "no answer"}); a person will follow up.` };
}

/** The recipes' conversation: look the order up, prepare its refund (this is where the run waits), then answer. */
export function recipeScript(order: string): ScriptedStep[] {
  return [
    { calls: [{ name: "lookup_order", args: { order_id: order } }] },
    { calls: [{ name: "prepare_refund", args: { order_id: order, reason: "damaged_item" } }] },
    replyToOutcome,
  ];
}

/** What every recipe returns: what the customer was told (in order), what the reviewer saw, the final outcome. */
export type RecipeRun = {
  told: string[];
  reviewed: PendingAction | null;
  outcome: Envelope | null;
  text: string;
};
