import "server-only";
import { stepsInclude, stepsOf } from "./action-steps";
import { AppError } from "@/lib/domain/outcome";
import { stepUpClock } from "@/lib/domain/step-up";
import { approvalSessionWindow } from "@/lib/domain/policy";
import { assertCan, can } from "@/lib/domain/permissions";
import { canonicalProposalJson, hashInputOf, itemsOf, storedProposalIntact } from "@/lib/domain/proposal-hash";
import { canBeReprepared, effectiveStatus, isAwaitingReview } from "@/lib/domain/proposal-state";
import type { ProposalDetail, ProposalPage } from "@/lib/schemas/proposal-dto";
import { isRefundDetail } from "@/lib/schemas/proposal-page";
import { holdingRefundStatuses } from "@/lib/domain/refund-state";
import { db } from "@/lib/server/db/client";
import type { Actor } from "@/lib/server/auth/actor";
import { hasPasskeys } from "@/lib/server/passkeys/list-passkeys";
import { openProposalsWhere } from "./refundable-left";
import { findDuplicateOf, findPreviousRejection } from "./review-signals";
import { isUuid } from "@/lib/domain/validation";
import { asRefund } from "@/lib/domain/refund-row";
import { customerConfirmationView } from "@/lib/server/confirmations/customer-confirmation-view";
import { getKindProposal } from "./get-kind-proposal";

export type { ProposalDetail } from "@/lib/schemas/proposal-dto";

/** Everything a reviewer needs to decide on one proposal of their tenant, and where each number came from. */
export async function getProposal(actor: Actor, id: string): Promise<ProposalPage> {
  assertCan(actor.roles, "proposal:read");
  if (!isUuid(id)) throw new AppError("not_found", "No such proposal.");
  return getRefundProposal(actor, id);
}

/** getProposal for a refund's id (a proposal of another kind is not found here): its detail, typed as the refund's. */
export async function getRefundDetail(actor: Actor, id: string): Promise<ProposalDetail> {
  const page = await getProposal(actor, id);
  if (!isRefundDetail(page)) throw new AppError("not_found", "No such refund proposal.");
  return page;
}

/**
 * The refund's page: the amount, the recipient, the order and where each number came from. A proposal of another kind
 * is presented by the registry's review instead (get-kind-proposal.ts); refunds, the common case, take one read.
 */
async function getRefundProposal(actor: Actor, id: string): Promise<ProposalPage> {
  const found = await db().proposal.findFirst({
    where: { id, tenantId: actor.tenantId },
    include: {
      order: {
        include: { refunds: { orderBy: { createdAt: "asc" } }, customer: { select: { id: true, name: true } } },
      },
      payment: true,
      channel: { select: { slug: true, name: true } },
      requestedByAgentKey: { select: { name: true, keyPrefix: true } },
      approvals: { orderBy: { createdAt: "asc" }, include: { approver: { select: { name: true } } } },
      comments: {
        where: { tenantId: actor.tenantId },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        include: { author: { select: { name: true } } },
      },
      supersedes: { select: { id: true, amountMinor: true, status: true } },
      supersededBy: { select: { id: true, amountMinor: true, status: true } },
      ...stepsInclude,
      tenant: { select: { stepUpMinutes: true, approvalSessionMinutes: true } },
    },
  });
  if (!found) throw new AppError("not_found", "No such proposal.");
  if (found.kind !== "refund") return getKindProposal(actor, id);
  // The page is the refund's (the only kind so far; the registry's `review` fields take its place for the others).
  const p = {
    ...asRefund(found),
    supersedes: found.supersedes && asRefund(found.supersedes),
    supersededBy: found.supersededBy && asRefund(found.supersededBy),
  };
  const now = new Date();
  const others = (
    await db().proposal.findMany({
      where: openProposalsWhere(p.orderId, now, p.id),
      select: { id: true, amountMinor: true, status: true },
    })
  ).map((o) => asRefund(o));
  const previouslyRejected = await findPreviousRejection(p.id);
  // A replaced proposal is closed and points to its replacement: it never warns about that replacement
  // (the same order, still open) as a "possible duplicate".
  const possibleDuplicateOf = p.supersededBy ? null : await findDuplicateOf(p.id);
  const requester = p.requestedByStaffId
    ? await db().staffUser.findFirst({
        where: { id: p.requestedByStaffId, tenantId: actor.tenantId },
        select: { name: true },
      })
    : null;
  const staffIds = [p.rejectedByStaffId, p.claimedByStaffId].filter((x): x is string => !!x);
  const staffNames = new Map(
    staffIds.length
      ? (
          await db().staffUser.findMany({
            where: { id: { in: staffIds }, tenantId: actor.tenantId },
            select: { id: true, name: true },
          })
        ).map((s) => [s.id, s.name])
      : [],
  );
  // What holds money back (a canceled refund does not), wherever it was made.
  const holding = p.order.refunds.filter((r) => holdingRefundStatuses.includes(r.status));
  const refundedMinor = holding.reduce((s, r) => s + r.amountMinor, 0);
  const elsewhereMinor = holding.filter((r) => r.origin === "external").reduce((s, r) => s + r.amountMinor, 0);
  const pending = isAwaitingReview(p, now);
  const presented = presentedOrder(p);
  const ownRequest = p.requestedByStaffId === actor.userId;
  const alreadyApproved = p.approvals.some((a) => a.approverId === actor.userId);
  return {
    kind: "refund",
    id: p.id,
    // Derived from the clock: past its expiry a pending proposal reads `expired` even before the sweep wrote it.
    status: effectiveStatus(p, now),
    hash: p.hash,
    canonicalJson: canonicalJsonOf(p),
    hashVersion: p.hashVersion,
    hashIntact: storedProposalIntact(p),
    changedSincePrepared: presented.changed,
    amountMinor: p.amountMinor,
    currency: p.currency,
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
            by: p.rejectedByStaffId ? (staffNames.get(p.rejectedByStaffId) ?? null) : null,
            at: p.decidedAt?.toISOString() ?? null,
            customerMessage: p.rejectionReason,
            internalNote: p.rejectionInternalNote,
          }
        : null,
    // Shown only while it lasts and the proposal still awaits review.
    claim:
      pending && p.claimedByStaffId && p.claimExpiresAt && p.claimExpiresAt > now
        ? {
            by: staffNames.get(p.claimedByStaffId) ?? "—",
            mine: p.claimedByStaffId === actor.userId,
            until: p.claimExpiresAt.toISOString(),
          }
        : null,
    invalidationReason: p.invalidationReason,
    customerConfirmation: await customerConfirmationView(p),
    recipient: { kind: p.recipientKind, holder: p.recipientHolder, ref: p.recipientRef, display: p.recipientDisplay },
    // Who pays it: the provider, or ops by hand (a manual payment) — from the hashed source (v3), else the payment.
    payout: (p.sourceProvider ?? p.payment.provider) === "manual" ? "manual" : "provider",
    order: {
      id: p.order.id,
      number: presented.number,
      status: p.order.status,
      totalMinor: p.order.totalMinor,
      capturedMinor: p.order.capturedMinor,
      placedAt: p.order.placedAt.toISOString(),
      items: presented.items,
      customer: { id: p.order.customer.id, name: presented.customerName },
      refunds: p.order.refunds.map((r) => ({
        id: r.id,
        amountMinor: r.amountMinor,
        status: r.status,
        origin: r.origin,
        createdAt: r.createdAt.toISOString(),
      })),
    },
    derivation: {
      capturedMinor: p.order.capturedMinor,
      refundedMinor,
      elsewhereMinor,
      otherOpenMinor: others.reduce((s, o) => s + o.amountMinor, 0),
      others,
    },
    payment: { method: p.payment.method, display: p.payment.display, providerPaymentRef: p.payment.providerPaymentRef },
    requestedBy: p.requestedByAgentKey
      ? { kind: "agent" as const, name: p.requestedByAgentKey.name, channel: p.channel?.slug ?? null }
      : { kind: "staff" as const, name: requester?.name ?? "—", channel: null },
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
    steps: stepsOf(found, actor.tenantId),
    previouslyRejected,
    possibleDuplicateOf,
    viewer: {
      canDecide: can(actor.roles, "proposal:decide") && pending && !ownRequest && !alreadyApproved,
      canReject: can(actor.roles, "proposal:decide") && pending,
      canComment: can(actor.roles, "proposal:comment"),
      canEdit: can(actor.roles, "proposal:decide") && pending,
      canReprepare: can(actor.roles, "proposal:reprepare") && !p.supersededBy && canBeReprepared(p, now),
      ownRequest,
      alreadyApproved,
      // The approve dialog then offers "Approve with passkey" (a signature over this proposal's hash).
      hasPasskeys: can(actor.roles, "proposal:decide") && (await hasPasskeys(actor)),
      // After this instant an approval needs re-authentication (the server checks it anyway).
      stepUpMinutes: p.tenant.stepUpMinutes,
      stepUpAfter: new Date((stepUpClock(actor) + approvalSessionWindow(p.tenant) * 60) * 1000).toISOString(),
    },
  };
}

type Item = ProposalDetail["order"]["items"][number];
const sameItems = (a: Item[], b: Item[]) => JSON.stringify(a) === JSON.stringify(b);
/** Items as stored; a malformed list (a row altered outside the product) is shown as none rather than failing the page. */
const itemsOrNone = (raw: unknown): Item[] => {
  try {
    return itemsOf(raw);
  } catch {
    return [];
  }
};

/**
 * What the page presents about the order. A v4 proposal: the number, the customer's name and the items it hashed
 * (what the approval will bind), plus today's name and items where they differ ("changed since prepared"). Before
 * v4 nothing of the order was hashed: today's rows, as they were always shown.
 */
function presentedOrder(p: {
  hashVersion: number;
  orderNumber: string | null;
  customerName: string | null;
  orderItems: unknown;
  order: { number: string; items: unknown; customer: { name: string } };
}) {
  const today = { number: p.order.number, customerName: p.order.customer.name, items: itemsOrNone(p.order.items) };
  if (p.hashVersion < 4 || p.orderNumber === null || p.customerName === null) return { ...today, changed: null };
  const hashed = { number: p.orderNumber, customerName: p.customerName, items: itemsOrNone(p.orderItems) };
  const nameChanged = today.customerName !== hashed.customerName;
  const itemsChanged = !sameItems(today.items, hashed.items);
  return {
    ...hashed,
    changed:
      nameChanged || itemsChanged
        ? { customerName: nameChanged ? today.customerName : null, items: itemsChanged ? today.items : null }
        : null,
  };
}

/** The canonical JSON the hash is computed over; a row altered so that it cannot be hashed shows none. */
function canonicalJsonOf(p: Parameters<typeof hashInputOf>[0]): string {
  try {
    return canonicalProposalJson(hashInputOf(p));
  } catch {
    return "";
  }
}
