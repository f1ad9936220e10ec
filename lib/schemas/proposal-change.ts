import { z } from "zod";

/**
 * What the database announces on channel "proposal_changes" (prisma/migrations/20261201100000_realtime_proposal_changes
 * and 20261201163000_inbox_change_notifications): a change of a proposal's status or of its execution's status;
 * an approval recorded (the proposal may stay pending, waiting for a second reviewer); an admin change or policy
 * version proposed or decided. Ids and the new status only — no personal data, so it may be fanned out to any
 * subscriber of the tenant.
 */
export const proposalStatusChangeSchema = z.object({
  tenantId: z.uuid(),
  proposalId: z.uuid(),
  /** The new status: a ProposalStatus for kind "proposal", an ExecutionStatus for kind "execution". */
  status: z.string().min(1).max(40),
  kind: z.enum(["proposal", "execution"]),
});
export type ProposalStatusChange = z.infer<typeof proposalStatusChangeSchema>;

export const proposalChangeSchema = z.union([
  proposalStatusChangeSchema,
  z.object({ tenantId: z.uuid(), proposalId: z.uuid(), kind: z.literal("approval") }),
  z.object({ tenantId: z.uuid(), kind: z.literal("admin") }),
]);
export type ProposalChange = z.infer<typeof proposalChangeSchema>;
