import { z } from "zod";

const proposalId = z.uuid({ message: "Not a proposal id." });
const hash = z.string().regex(/^[0-9a-f]{64}$/, "Expected the 64-character lowercase hex hash shown to you.");

/** Re-authentication sent with an approval when the session is older than the step-up window. */
export const stepUpInput = z.discriminatedUnion("method", [
  z.object({ method: z.literal("password"), password: z.string().min(1).max(1024) }),
]);

export const approveProposalInput = z.strictObject({
  proposalId,
  hash,
  stepUp: stepUpInput.optional(),
});
export type ApproveProposalInput = z.infer<typeof approveProposalInput>;

export const rejectProposalInput = z.strictObject({
  proposalId,
  hash,
  reason: z.string().trim().min(3, "Give the reason (at least 3 characters).").max(500),
});
export type RejectProposalInput = z.infer<typeof rejectProposalInput>;

export const queueFilterInput = z.strictObject({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
  channel: z.string().max(64).optional(),
  flag: z.enum(["duplicate", "velocity", "two_approvals"]).optional(),
  minMinor: z.coerce.number().int().min(0).optional(),
  maxMinor: z.coerce.number().int().min(0).optional(),
});
export type QueueFilterInput = z.infer<typeof queueFilterInput>;
