import { z } from "zod";

import { executionStates } from "@/lib/domain/execution-state";

export { executionStates, type ExecutionState } from "@/lib/domain/execution-state";

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
