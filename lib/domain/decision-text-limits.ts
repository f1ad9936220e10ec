// How much a reviewer may type (characters, after trimming): the server's schemas (lib/schemas/proposals.ts)
// enforce these, and the forms (components/reviewer/reject-fields.tsx, the proposal's comment form) stop at
// the same place from here, without loading zod in the browser (the pages' JavaScript budgets, bench:ui).
// decision-text-limits.test.ts holds the schemas to these numbers at each boundary.

/** The message for the customer on a rejection (what the agent may read). */
export const CUSTOMER_MESSAGE_MIN = 3;
export const CUSTOMER_MESSAGE_MAX = 500;
/** A rejection's staff-only internal note. */
export const INTERNAL_NOTE_MAX = 1000;
/** A staff comment on a proposal: a note for colleagues, not a document. */
export const COMMENT_MAX = 2000;
