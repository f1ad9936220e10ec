import "server-only";
import type { KindReview, ReviewField } from "@/lib/actions/kind.server";
import { kindBehaviourOf } from "@/lib/actions/registry.server";

// What staff pages show of a kind's action — the queue, the decided list, the inbox, the trace page, the executions
// pages: the kind's own review of the proposal's hashed params, through the registry. Knows no kind. The refund has
// pages and columns of its own (amount, recipient) and no review; a kind this release does not know has none either.

/**
 * The kind's review of its hashed params, or null when the kind has no review (the refund's columns speak for it) or
 * this release does not know the kind. Params the kind cannot read (altered outside the product) give an empty review:
 * shown as nothing, never guessed.
 */
export function reviewOfKind(kind: string, params: unknown): KindReview | null {
  const review = kindBehaviourOf(kind)?.review;
  if (!review) return null;
  try {
    return review(params);
  } catch {
    return { fields: [], sentence: {}, summary: "" };
  }
}

/** A kind's one line for lists; null for the refund (its lists show amount and recipient) or a kind not known here. */
export function kindSummaryOf(kind: string, params: unknown): string | null {
  return reviewOfKind(kind, params)?.summary ?? null;
}

/** A kind's labelled values (before → after); null for the refund or a kind not known here. */
export function kindFieldsOf(kind: string, params: unknown): ReviewField[] | null {
  return reviewOfKind(kind, params)?.fields ?? null;
}
