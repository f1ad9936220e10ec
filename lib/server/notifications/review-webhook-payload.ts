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
    hash: string;
    amount: { minor: number; currency: string };
    expiresAt: string;
    reviewUrl: string;
  };
  createdAt: string;
};

export function reviewWebhookPayload(input: {
  deliveryId: string;
  proposal: { id: string; hash: string; amountMinor: number; currency: string; expiresAt: Date };
  baseUrl: string;
  now: Date;
}): ReviewWebhookPayload {
  const p = input.proposal;
  return {
    type: REVIEW_WEBHOOK_EVENT,
    id: input.deliveryId,
    proposal: {
      id: p.id,
      hash: p.hash,
      amount: { minor: p.amountMinor, currency: p.currency },
      expiresAt: p.expiresAt.toISOString(),
      reviewUrl: `${input.baseUrl}/proposals/${encodeURIComponent(p.id)}`,
    },
    createdAt: input.now.toISOString(),
  };
}
