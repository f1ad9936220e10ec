import "server-only";
import { failure } from "@/lib/domain/agent-protocol";
import { agentOutcomeFor, paymentPhase, proposalStatus as S } from "@/lib/domain/proposal-state";
import type { GetRefundStatusInput } from "./tools";
import { jsonObjectFrom } from "kysely/helpers/postgres";
import type { Sql } from "@/lib/server/db/sql";
import { expireIfDue } from "@/lib/server/proposals/agent-answer";
import type { HandlerResult, ToolContext } from "@/lib/server/agent/tool-context";
import { approvalRequired, POLL_AFTER_SECONDS } from "./proposal-answer";
import { asRefund } from "@/lib/domain/refund-row";

/** get_refund_status: where a proposal of the verified customer stands (docs/design.md "Flow", last line). */
export async function getRefundStatus(tx: Sql, input: GetRefundStatusInput, ctx: ToolContext): Promise<HandlerResult> {
  if (!ctx.customerId) throw new Error("get_refund_status needs a verified customer");
  const { tenantId } = ctx.caller;
  const { customerId } = ctx;
  await expireIfDue(tx, { tenantId, customerId, proposalId: input.proposal_id });
  const p = await tx
    .selectFrom("Proposal as p")
    .innerJoin("Order as o", "o.id", "p.orderId")
    .select((eb) => [
      "p.id",
      "p.hash",
      "p.status",
      "p.amountMinor",
      "p.currency",
      "p.recipientKind",
      "p.recipientDisplay",
      "p.recipientHolder",
      "p.reason",
      "p.expiresAt",
      "p.requiredApprovals",
      "p.rejectionReason",
      "p.invalidationReason",
      "o.number as orderNumber",
      // The proposal that replaced this one (a reviewer lowered the amount), if any.
      jsonObjectFrom(
        eb
          .selectFrom("Proposal as s")
          .select(["s.id", "s.amountMinor", "s.status"])
          .whereRef("s.supersedesId", "=", "p.id"),
      ).as("supersededBy"),
      eb.selectFrom("Execution as e").select("e.status").whereRef("e.proposalId", "=", "p.id").as("executionStatus"),
    ])
    .where("p.id", "=", input.proposal_id)
    .where("p.tenantId", "=", tenantId)
    .where("p.customerId", "=", customerId)
    // get_refund_status answers for refunds (get_action_status for every kind).
    .where("p.kind", "=", "refund")
    .executeTakeFirst()
    .then((row) => row && asRefund(row));
  if (!p) {
    return {
      outcome: failure(
        "not_found",
        `No refund proposal ${JSON.stringify(input.proposal_id)} was found for this customer.`,
        { proposal_id: input.proposal_id },
      ),
    };
  }
  const proposal = { id: p.id, hash: p.hash };
  const base = { proposal_id: p.id, order_id: p.orderNumber, amount: { minor: p.amountMinor, currency: p.currency } };
  // The code comes from the one state → outcome mapping; the words and details per outcome are here.
  const code = agentOutcomeFor(p.status);
  // How the wait asked for ended (wait_seconds): "timeout" = nothing changed meanwhile.
  const waited = ctx.wait ? { wait: { outcome: ctx.wait.outcome } } : {};
  if (code === "approval_required") {
    const answer = approvalRequired(p, p.orderNumber);
    return { outcome: "result" in answer ? { ...answer, result: { ...answer.result, ...waited } } : answer, proposal };
  }
  if (code === "result_pending") {
    const phase = paymentPhase(p.status, p.executionStatus);
    const next_step = {
      in_doubt:
        "Approved and sent, but the payment provider's answer was lost; it is being checked and the refund is paid at most once. Tell the customer it is being confirmed. Wait with get_refund_status and wait_seconds. Do not re-submit.",
      awaiting_payout:
        "Approved; awaiting payout: the shop's staff pay this refund out by bank transfer (the original payment was not made through a connected payment provider), which can take a few business days. Tell the customer so. Check again after poll_after_seconds. Do not re-submit.",
      executing:
        "Approved; the refund is being paid. Wait with get_refund_status and wait_seconds, or check again after poll_after_seconds. Do not re-submit.",
    }[phase];
    return {
      outcome: {
        code,
        result: {
          ...base,
          status: p.status,
          phase,
          poll_after_seconds: POLL_AFTER_SECONDS[phase],
          next_step,
          ...waited,
        },
      },
      proposal,
    };
  }
  if (code === "ok") return { outcome: { code, result: { ...base, status: p.status } }, proposal };
  // Ended without effect: rejected, expired or invalidated — each the agent's error code of the same name.
  switch (p.status) {
    case S.rejected:
      return {
        outcome: failure(code, "A reviewer rejected this refund.", { ...base, reason: p.rejectionReason ?? null }),
        proposal,
      };
    case S.expired:
      return {
        outcome: failure(
          code,
          "This refund proposal expired before anyone approved it. Prepare a new one only if the customer still wants it.",
          base,
        ),
        proposal,
      };
    case S.invalidated:
      return {
        outcome: failure(
          code,
          "This refund proposal can no longer be approved (the order changed or a reviewer replaced it).",
          {
            ...base,
            reason: p.invalidationReason ?? null,
            replaced_by: p.supersededBy
              ? { proposal_id: p.supersededBy.id, amount: { minor: p.supersededBy.amountMinor, currency: p.currency } }
              : null,
            // The proposal that took its place (a reviewer lowered the amount): follow it with get_refund_status.
            superseded_by: p.supersededBy
              ? {
                  proposal_id: p.supersededBy.id,
                  status: p.supersededBy.status,
                  amount: { minor: p.supersededBy.amountMinor, currency: p.currency },
                }
              : null,
          },
        ),
        proposal,
      };
    default:
      throw new Error(`no agent answer for ${p.status} (${code})`);
  }
}
