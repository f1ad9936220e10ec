import "server-only";
import type { ReviewField } from "@/lib/actions/kind.server";
import { kindBehaviourOf } from "@/lib/actions/registry.server";

/**
 * A kind's one line for lists (the queue, the decided list), from its hashed params through the kind's `review`.
 * null for a kind with pages and columns of its own (no `review`: the refund, whose lists show amount and recipient);
 * "" when it cannot be read (a kind this release does not know, params it cannot parse): shown empty, never guessed.
 */
export function kindSummaryOf(kind: string, params: unknown): string | null {
  const behaviour = kindBehaviourOf(kind);
  if (behaviour && !behaviour.review) return null;
  try {
    return behaviour?.review?.(params).summary ?? "";
  } catch {
    return "";
  }
}

/** A kind's labelled values (before → after) from its hashed params; null for a kind without `review` or one not known. */
export function kindFieldsOf(kind: string, params: unknown): ReviewField[] | null {
  const review = kindBehaviourOf(kind)?.review;
  if (!review) return null;
  try {
    return review(params).fields;
  } catch {
    return null;
  }
}
