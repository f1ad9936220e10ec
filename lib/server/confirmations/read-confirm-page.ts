import "server-only";
import type { ReviewField } from "@/lib/actions/kind.server";
import { needsCustomer } from "@/lib/domain/confirmation-policy";
import { formatMinor } from "@/lib/domain/format-money";
import { storedProposalIntact } from "@/lib/domain/proposal-hash";
import { proposalStatus as S } from "@/lib/domain/proposal-state";
import type { ConfirmRefusal } from "@/lib/schemas/customer-confirmation";
import { db } from "@/lib/server/db/client";
import { reviewOfKind } from "@/lib/server/proposals/kind-review";
import { confirmTokenHash, isTokenShaped } from "./confirm-token";

/** What the confirm page shows: the hashed action only (no account, no order history), in the tenant's language. */
export type ConfirmPageView = {
  proposalId: string;
  hash: string;
  kind: string;
  locale: string;
  tenantName: string;
  /** When the link stops working (ISO). */
  linkExpiresAt: string;
  /** The kind's labelled values, before → after, from the hashed params (a refund's from its hashed columns). */
  fields: ReviewField[];
  /** The values of the kind's one-sentence confirmation (messages `kinds.<kind>.confirm`, or `confirm.refund`). */
  sentence: Record<string, string>;
};

export type ConfirmPage = { ok: true; view: ConfirmPageView } | { ok: false; code: ConfirmRefusal; locale: string };

/**
 * The confirm page of a token, read without using it: refused (stable code) when the link is unknown, used, expired,
 * or the proposal is no longer pending or no longer the action the link was issued for.
 */
export async function readConfirmPage(token: string, now = new Date()): Promise<ConfirmPage> {
  const fallback = "en-US";
  if (!isTokenShaped(token)) return { ok: false, code: "link_unknown", locale: fallback };
  const link = await db().customerConfirmation.findUnique({
    where: { tokenHash: confirmTokenHash(token) },
    include: { proposal: { include: { tenant: { select: { name: true, locale: true } } } } },
  });
  if (!link) return { ok: false, code: "link_unknown", locale: fallback };
  const p = link.proposal;
  const locale = p.tenant.locale;
  if (p.tenantId !== link.tenantId) return { ok: false, code: "link_unknown", locale: fallback };
  if (link.usedAt) return { ok: false, code: "link_used", locale };
  if (link.expiresAt <= now) return { ok: false, code: "link_expired", locale };
  if (p.status !== S.pendingApproval || p.expiresAt <= now) return { ok: false, code: "proposal_closed", locale };
  if (!storedProposalIntact(p) || p.hash !== link.proposalHash || !needsCustomer(p.confirmation))
    return { ok: false, code: "proposal_changed", locale };
  const review = p.kind === "refund" ? refundReview(p, locale) : reviewOfKind(p.kind, p.params);
  if (!review || review.fields.length === 0) return { ok: false, code: "proposal_changed", locale };
  return {
    ok: true,
    view: {
      proposalId: p.id,
      hash: p.hash,
      kind: p.kind,
      locale,
      tenantName: p.tenant.name,
      linkExpiresAt: link.expiresAt.toISOString(),
      fields: review.fields,
      sentence: review.sentence,
    },
  };
}

/** A refund has no review of its own (its pages read its columns): the order, amount and recipient, as hashed. */
function refundReview(
  p: {
    orderNumber: string | null;
    amountMinor: number | null;
    currency: string | null;
    recipientDisplay: string | null;
  },
  locale: string,
) {
  if (p.orderNumber === null || p.amountMinor === null || p.currency === null || p.recipientDisplay === null)
    return null;
  const amount = formatMinor(p.amountMinor, p.currency.trim(), locale);
  return {
    fields: [
      { key: "order", before: null, after: p.orderNumber, changed: false },
      { key: "amount", before: null, after: amount, changed: false },
      { key: "recipient", before: null, after: p.recipientDisplay, changed: false },
    ],
    sentence: { order: p.orderNumber, amount, recipient: p.recipientDisplay },
  };
}
