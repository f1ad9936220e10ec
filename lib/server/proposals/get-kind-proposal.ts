import "server-only";
import { stepsInclude, stepsOf } from "./action-steps";
import { AppError } from "@/lib/domain/outcome";
import { can } from "@/lib/domain/permissions";
import { canonicalProposalJson, hashInputOf, storedProposalIntact } from "@/lib/domain/proposal-hash";
import { effectiveStatus, isAwaitingReview } from "@/lib/domain/proposal-state";
import { approvalSessionWindow } from "@/lib/domain/policy";
import { stepUpClock } from "@/lib/domain/step-up";
import type { KindProposalDetail } from "@/lib/schemas/proposal-dto";
import { reviewOfKind } from "./kind-review";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";
import { customerConfirmationView } from "@/lib/server/confirmations/customer-confirmation-view";
import { hasPasskeys } from "@/lib/server/passkeys/list-passkeys";

// The proposal page of every kind with a `review` (docs/action-kinds.md): the action exactly as the kind presents it
// from the hashed params, and what every proposal has (state, expiry, approvals, comments, who asked, the viewer's
// rights). Knows no kind: the registry's `review` does the presenting.

/** Everything a reviewer needs to decide on one proposal of a kind other than the refund. */
export async function getKindProposal(actor: Actor, id: string): Promise<KindProposalDetail> {
  const p = await db().proposal.findFirst({
    where: { id, tenantId: actor.tenantId },
    include: {
      channel: { select: { slug: true } },
      requestedByAgentKey: { select: { name: true } },
      approvals: { orderBy: { createdAt: "asc" }, include: { approver: { select: { name: true } } } },
      comments: {
        where: { tenantId: actor.tenantId },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        include: { author: { select: { name: true } } },
      },
      supersedes: { select: { id: true, status: true } },
      supersededBy: { select: { id: true, status: true } },
      ...stepsInclude,
      execution: { select: { id: true, status: true, actionReference: true, failureReason: true } },
      tenant: { select: { stepUpMinutes: true, approvalSessionMinutes: true } },
    },
  });
  if (!p) throw new AppError("not_found", "No such proposal.");
  // Params altered outside the product into something the kind cannot read present nothing (reviewOfKind).
  const presented = reviewOfKind(p.kind, p.params);
  // A kind this release does not know, or one without a review: never shown as something it is not.
  if (!presented) throw new AppError("temporarily_unavailable", "This kind of action cannot be shown by this version.");
  const intact = storedProposalIntact(p);
  const now = new Date();
  const pending = isAwaitingReview(p, now);
  const ownRequest = p.requestedByStaffId === actor.userId;
  const alreadyApproved = p.approvals.some((a) => a.approverId === actor.userId);
  const staffIds = [p.rejectedByStaffId, p.claimedByStaffId, p.requestedByStaffId].filter((x): x is string => !!x);
  const staff = new Map(
    staffIds.length
      ? (
          await db().staffUser.findMany({
            where: { id: { in: staffIds }, tenantId: actor.tenantId },
            select: { id: true, name: true },
          })
        ).map((s) => [s.id, s.name])
      : [],
  );
  const canDecide = can(actor.roles, "proposal:decide");
  const confirmation = await customerConfirmationView(p);
  return {
    kind: p.kind,
    id: p.id,
    status: effectiveStatus(p, now),
    hash: p.hash,
    canonicalJson: canonicalJsonOf(p),
    hashVersion: p.hashVersion,
    hashIntact: intact,
    reason: p.reason,
    expiresAt: p.expiresAt.toISOString(),
    createdAt: p.createdAt.toISOString(),
    decidedAt: p.decidedAt?.toISOString() ?? null,
    traceId: p.traceId,
    requiredApprovals: p.requiredApprovals,
    rejectionReason: p.rejectionReason,
    rejection:
      p.rejectedByStaffId || p.rejectionReason
        ? {
            by: p.rejectedByStaffId ? (staff.get(p.rejectedByStaffId) ?? null) : null,
            at: p.decidedAt?.toISOString() ?? null,
            customerMessage: p.rejectionReason,
            internalNote: p.rejectionInternalNote,
          }
        : null,
    claim:
      pending && p.claimedByStaffId && p.claimExpiresAt && p.claimExpiresAt > now
        ? {
            by: staff.get(p.claimedByStaffId) ?? "—",
            mine: p.claimedByStaffId === actor.userId,
            until: p.claimExpiresAt.toISOString(),
          }
        : null,
    invalidationReason: p.invalidationReason,
    customerConfirmation: confirmation,
    review: intact ? presented : { fields: presented.fields, sentence: {}, summary: presented.summary },
    execution: p.execution
      ? {
          id: p.execution.id,
          status: p.execution.status,
          reference: p.execution.actionReference,
          failureReason: p.execution.failureReason,
        }
      : null,
    requestedBy: p.requestedByAgentKey
      ? { kind: "agent" as const, name: p.requestedByAgentKey.name, channel: p.channel?.slug ?? null }
      : {
          kind: "staff" as const,
          name: (p.requestedByStaffId && staff.get(p.requestedByStaffId)) || "—",
          channel: null,
        },
    approvals: p.approvals.map((a) => ({
      id: a.id,
      approver: a.approver.name,
      authMethod: a.authMethod,
      authTime: a.authTime.toISOString(),
      createdAt: a.createdAt.toISOString(),
      passkey: !!a.passkeyAssertion,
    })),
    comments: p.comments.map((c) => ({
      id: c.id,
      author: c.author.name,
      body: c.body,
      createdAt: c.createdAt.toISOString(),
    })),
    supersedes: p.supersedes,
    supersededBy: p.supersededBy,
    steps: stepsOf(p, actor.tenantId),
    viewer: {
      // Only the customer confirms it: a reviewer may reject, never approve (approveProposal refuses it too).
      canDecide: canDecide && pending && !ownRequest && !alreadyApproved && confirmation.required !== "customer",
      canReject: canDecide && pending,
      canComment: can(actor.roles, "proposal:comment"),
      // Editing an amount and re-preparing from staff are the refund's; another kind is re-prepared by its agent.
      canEdit: false,
      canReprepare: false,
      ownRequest,
      alreadyApproved,
      hasPasskeys: canDecide && (await hasPasskeys(actor)),
      stepUpMinutes: p.tenant.stepUpMinutes,
      stepUpAfter: new Date((stepUpClock(actor) + approvalSessionWindow(p.tenant) * 60) * 1000).toISOString(),
    },
  };
}

function canonicalJsonOf(p: Parameters<typeof hashInputOf>[0]): string {
  try {
    return canonicalProposalJson(hashInputOf(p));
  } catch {
    return "";
  }
}
