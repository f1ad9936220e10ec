import { z } from "zod";

export const executionStates = ["sending", "pending", "unknown", "succeeded", "failed"] as const;
export type ExecutionState = (typeof executionStates)[number];

export const listExecutionsInput = z.strictObject({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
  state: z.enum(executionStates).optional(),
});
export type ListExecutionsInput = z.infer<typeof listExecutionsInput>;

export const checkExecutionNowInput = z.strictObject({
  executionId: z.uuid({ message: "Not an execution id." }),
});
export type CheckExecutionNowInput = z.infer<typeof checkExecutionNowInput>;
