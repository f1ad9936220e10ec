import "server-only";
// get_action_status: where a proposal of any kind stands, for the verified customer it was prepared for
// (docs/action-kinds.md). The core tool beside each kind's own: the state → outcome mapping is the one every kind
// shares (lib/domain/proposal-state.ts); the action itself is the kind's `agentAction` — the hashed values a person
// approves, in the words of the kind's prepare answer. Knows no kind.
import { jsonObjectFrom } from "kysely/helpers/postgres";
import { failure } from "@/lib/domain/agent-protocol";
import { agentOutcomeFor, isProposalStatus, paymentPhase, proposalStatus as S } from "@/lib/domain/proposal-state";
import { kindBehaviourOf } from "@/lib/actions/registry.server";
import { MAX_WAIT_SECONDS, type GetActionStatusInput } from "@/lib/schemas/tools";
import type { HandlerResult, ToolContext } from "@/lib/server/agent/tool-context";
import type { Sql } from "@/lib/server/db/sql";
import { expireIfDue, pendingPollAfter, POLL_AFTER_SECONDS, reviewUrl } from "./agent-answer";

const WAIT = `get_action_status with wait_seconds: ${MAX_WAIT_SECONDS}`;

const NEXT_STEP = {
  pending_review: `A person must approve this action before anything happens. Tell the customer it awaits review. To learn the decision, call ${WAIT} (it answers as soon as a reviewer decides; repeat while it still awaits review), or check again after poll_after_seconds. Do not prepare it again.`,
  executing: `Approved; it is being carried out. Wait with ${WAIT}, or check again after poll_after_seconds. Do not prepare it again.`,
  in_doubt: `Approved and sent, but the answer was lost; it is being checked and it takes effect at most once. Tell the customer it is being confirmed. Wait with ${WAIT}. Do not prepare it again.`,
  awaiting_payout: `Approved; the shop's staff carry it out by hand, which can take a few business days. Tell the customer so. Check again after poll_after_seconds. Do not prepare it again.`,
} as const;

export async function getActionStatus(
  tx: Sql,
  input: GetActionStatusInput,
  ctx: ToolContext,
  now = new Date(),
): Promise<HandlerResult> {
  if (!ctx.customerId) throw new Error("get_action_status needs a verified customer");
  const { tenantId } = ctx.caller;
  const { customerId } = ctx;
  await expireIfDue(tx, { tenantId, customerId, proposalId: input.proposal_id }, now);
  // Tenant and customer in the WHERE: another customer's or tenant's proposal is as missing as one that never was.
  const row = await tx
    .selectFrom("Proposal as p")
    .leftJoin("Order as o", (j) => j.onRef("o.id", "=", "p.orderId").onRef("o.tenantId", "=", "p.tenantId"))
    .selectAll("p")
    .select((eb) => [
      "o.number as orderRef",
      // The proposal that took this one's place (a reviewer lowered the amount, the customer gave another address).
      jsonObjectFrom(
        eb.selectFrom("Proposal as s").select(["s.id", "s.status"]).whereRef("s.supersedesId", "=", "p.id"),
      ).as("supersededBy"),
      eb.selectFrom("Execution as e").select("e.status").whereRef("e.proposalId", "=", "p.id").as("executionStatus"),
      // What the system that carried it out calls the result (the action endpoint's `reference`: a replacement's new
      // order number), once it succeeded.
      eb
        .selectFrom("Execution as e")
        .select("e.actionReference")
        .whereRef("e.proposalId", "=", "p.id")
        .where("e.status", "=", "succeeded")
        .as("executionReference"),
      // The action's second step, if it has one (a cancellation's refund), with its execution's state.
      jsonObjectFrom(
        eb
          .selectFrom("Proposal as f")
          .select((fb) => [
            "f.kind",
            "f.status",
            fb
              .selectFrom("Execution as fe")
              .select("fe.status")
              .whereRef("fe.proposalId", "=", "f.id")
              .as("executionStatus"),
          ])
          .whereRef("f.parentId", "=", "p.id")
          .whereRef("f.tenantId", "=", "p.tenantId"),
      ).as("followUp"),
    ])
    .where("p.id", "=", input.proposal_id)
    .where("p.tenantId", "=", tenantId)
    .where("p.customerId", "=", customerId)
    .executeTakeFirst();
  if (!row) {
    return {
      outcome: failure(
        "not_found",
        `No action proposal ${JSON.stringify(input.proposal_id)} was found for this customer.`,
        {
          proposal_id: input.proposal_id,
        },
      ),
    };
  }
  const proposal = { id: row.id, hash: row.hash };
  const behaviour = kindBehaviourOf(row.kind);
  if (!behaviour || !isProposalStatus(row.status)) {
    // Written by a newer release (read after a rollback): never guessed at; the release that knows it answers.
    return {
      outcome: failure("temporarily_unavailable", "This action cannot be read right now. Try again later.", {
        proposal_id: row.id,
        retry_after_seconds: 300,
      }),
      proposal,
    };
  }
  const { supersededBy, executionStatus, executionReference, followUp, ...stored } = row;
  const action = behaviour.agentAction(stored);
  // Carried out: the shop's reference for the result joins the action (create_order: the new order's number).
  if (executionReference && row.status === S.succeeded) action.reference = executionReference;
  const base = { proposal_id: row.id, kind: row.kind, action };
  const waited = ctx.wait ? { wait: { outcome: ctx.wait.outcome } } : {};
  const status = row.status;
  // An action in two steps (a cancellation, then its refund) is done when both are: while the second is under way,
  // the answer is the second's progress, so the agent never tells the customer a refund was paid before it was.
  if (followUp && status === S.succeeded && isProposalStatus(followUp.status)) {
    const step = { follow_up: { kind: followUp.kind, status: followUp.status } };
    if (agentOutcomeFor(followUp.status) === "result_pending") {
      const phase = paymentPhase(followUp.status, followUp.executionStatus);
      return {
        outcome: {
          code: "result_pending",
          result: {
            ...base,
            status,
            ...step,
            phase,
            poll_after_seconds: POLL_AFTER_SECONDS[phase],
            next_step: NEXT_STEP[phase],
            ...waited,
          },
        },
        proposal,
      };
    }
    const ended =
      followUp.status === S.succeeded
        ? {}
        : {
            next_step:
              "The first step was carried out, but the second ended without effect (see follow_up.status). Tell the customer a person will follow up; do not prepare it again.",
          };
    return { outcome: { code: "ok", result: { ...base, status, ...step, ...ended, ...waited } }, proposal };
  }
  const code = agentOutcomeFor(status);
  if (code === "approval_required") {
    return {
      outcome: {
        code,
        result: {
          ...base,
          status,
          expires_at: row.expiresAt.toISOString(),
          hash: row.hash,
          approvals_required: row.requiredApprovals,
          review_url: reviewUrl(row.id),
          poll_after_seconds: pendingPollAfter(row.expiresAt, now),
          next_step: NEXT_STEP.pending_review,
          ...waited,
        },
      },
      proposal,
    };
  }
  if (code === "result_pending") {
    const phase = paymentPhase(status, executionStatus);
    return {
      outcome: {
        code,
        result: {
          ...base,
          status,
          phase,
          poll_after_seconds: POLL_AFTER_SECONDS[phase],
          next_step: NEXT_STEP[phase],
          ...waited,
        },
      },
      proposal,
    };
  }
  if (code === "ok") return { outcome: { code, result: { ...base, status, ...waited } }, proposal };
  // Ended without effect: rejected, expired or invalidated — each the agent's error code of the same name.
  switch (status) {
    case S.rejected:
      return {
        outcome: failure(code, "A reviewer rejected this action.", { ...base, reason: row.rejectionReason ?? null }),
        proposal,
      };
    case S.expired:
      return {
        outcome: failure(
          code,
          "This proposal expired before anyone approved it. Prepare a new one only if the customer still wants it.",
          base,
        ),
        proposal,
      };
    case S.invalidated:
      return {
        outcome: failure(
          code,
          "This proposal can no longer be approved (what it was prepared from changed, or it was replaced).",
          {
            ...base,
            reason: row.invalidationReason ?? null,
            // Follow the proposal that took its place with get_action_status.
            superseded_by: supersededBy ? { proposal_id: supersededBy.id, status: supersededBy.status } : null,
          },
        ),
        proposal,
      };
    default:
      throw new Error(`no agent answer for ${status} (${code})`);
  }
}
