// Narrowing the proposal page's data (GET /api/proposals/{id}) without loading zod: the page's first-load budget
// keeps zod off its static imports (lib/queries/first-load-guard.test.ts), so this module imports types only.
import type { ProposalDetail, ProposalPage } from "./proposal-dto";

/** A refund's own detail (amount, recipient, order), as opposed to another kind's review. */
export const isRefundDetail = (p: ProposalPage): p is ProposalDetail => p.kind === "refund";
