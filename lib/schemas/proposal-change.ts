import { z } from "zod";

/**
 * What the database announces on every change of a proposal's status or of its execution's status
 * (prisma/migrations/20261201100000_realtime_proposal_changes: pg_notify on channel "proposal_changes").
 * Ids and the new status only — no personal data, so it may be fanned out to any subscriber of the tenant.
 */
export const proposalChangeSchema = z.object({
  tenantId: z.uuid(),
  proposalId: z.uuid(),
  /** The new status: a ProposalStatus for kind "proposal", an ExecutionStatus for kind "execution". */
  status: z.string().min(1).max(40),
  kind: z.enum(["proposal", "execution"]),
});
export type ProposalChange = z.infer<typeof proposalChangeSchema>;
