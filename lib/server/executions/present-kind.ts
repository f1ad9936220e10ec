import "server-only";
import type { KindReview } from "@/lib/actions/kind.server";
import { kindBehaviourOf } from "@/lib/actions/registry.server";

// What the executions pages show of a kind's action (issue #37): the kind's own review of the proposal's hashed
// params, through the registry — this file knows no kind. The refund has pages of its own (amount, recipient) and no
// review; a kind this release does not know has none either: both answer null, and the row shows what it has.

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
