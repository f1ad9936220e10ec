import "server-only";
import { isProposalStatus, type ProposalStatus } from "@/lib/domain/proposal-state";

// The other step of an action in two steps (docs/action-kinds.md, "Steps"), as the proposal page names it: the
// proposal this one follows (a cancellation's refund is its step 2) and the one following it. Only the tenant's own.

type StepRow = { id: string; tenantId: string; kind: string; status: string } | null;
export type ActionStep = { id: string; kind: string; status: ProposalStatus };

/** The Prisma include that reads both (one row each at most). */
export const stepsInclude = {
  parent: { select: { id: true, tenantId: true, kind: true, status: true } },
  followUp: { select: { id: true, tenantId: true, kind: true, status: true } },
} as const;

const step = (row: StepRow, tenantId: string): ActionStep | null =>
  row && row.tenantId === tenantId && isProposalStatus(row.status)
    ? { id: row.id, kind: row.kind, status: row.status }
    : null;

export function stepsOf(p: { parent: StepRow; followUp: StepRow }, tenantId: string) {
  return { partOf: step(p.parent, tenantId), followUp: step(p.followUp, tenantId) };
}
