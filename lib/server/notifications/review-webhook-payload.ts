import "server-only";

export const REVIEW_WEBHOOK_EVENT = "proposal.needs_review";

/**
 * The body a reviewer webhook receives. Deliberately no personal data: no customer or holder name,
 * email, IBAN or card reference — the reviewer follows `reviewUrl` and signs in to see those.
 */
export type ReviewWebhookPayload = {
  type: typeof REVIEW_WEBHOOK_EVENT;
  /** The delivery id, also in X-Webhook-Id; the same on every retry, so receivers can deduplicate. */
  id: string;
  proposal: {
    id: string;
    /** The proposal's action kind (`Proposal.kind`), named as decision webhooks name it. */
    kind: string;
    hash: string;
    /** Only on a proposal with an amount (a refund); absent for a kind without one. */
    amount?: { minor: number; currency: string };
    expiresAt: string;
    reviewUrl: string;
  };
  createdAt: string;
};

export function reviewWebhookPayload(input: {
  deliveryId: string;
  proposal: {
    id: string;
    kind: string;
    hash: string;
    amountMinor: number | null;
    currency: string | null;
    expiresAt: Date;
  };
  baseUrl: string;
  now: Date;
}): ReviewWebhookPayload {
  const p = input.proposal;
  return {
    type: REVIEW_WEBHOOK_EVENT,
    id: input.deliveryId,
    proposal: {
      id: p.id,
      kind: p.kind,
      hash: p.hash,
      ...(p.amountMinor !== null && p.currency !== null
        ? { amount: { minor: p.amountMinor, currency: p.currency } }
        : {}),
      expiresAt: p.expiresAt.toISOString(),
      reviewUrl: `${input.baseUrl}/proposals/${encodeURIComponent(p.id)}`,
    },
    createdAt: input.now.toISOString(),
  };
}
