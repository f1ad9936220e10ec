import { z } from "zod";

import { executionSorts, executionStates } from "@/lib/domain/execution-state";

// Defined in lib/domain (the client imports them from there: this module would bring zod to the browser).
export { executionSorts, executionStates, type ExecutionSort, type ExecutionState } from "@/lib/domain/execution-state";

export const listExecutionsInput = z.strictObject({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
  state: z.enum(executionStates).optional(),
  /** Order number, provider refund id, idempotency key, customer id or customer e-mail (case-insensitive). */
  q: z
    .string()
    .trim()
    .max(200, { message: "Search text is too long (200 characters at most)." })
    .optional()
    .transform((v) => v || undefined),
  sort: z.enum(executionSorts).default("newest"),
});
export type ListExecutionsInput = z.infer<typeof listExecutionsInput>;

export const checkExecutionNowInput = z.strictObject({
  executionId: z.uuid({ message: "Not an execution id." }),
});
export type CheckExecutionNowInput = z.infer<typeof checkExecutionNowInput>;

export const getExecutionInput = z.strictObject({
  executionId: z.uuid({ message: "Not an execution id." }),
});

/**
 * A manual payout recorded by ops: the transfer's (or store credit's) reference as the bank or the shop's
 * system shows it. Printable text only (no control characters): it is shown to a second person and audited.
 */
export const recordPayoutInput = z.strictObject({
  executionId: z.uuid({ message: "Not an execution id." }),
  reference: z
    .string()
    .trim()
    .min(3, { message: "Give the transfer's reference (3 characters at least)." })
    .max(100, { message: "The reference is too long (100 characters at most)." })
    .regex(/^[^\p{Cc}\p{Cs}]*$/u, { message: "The reference may not contain control characters." }),
});
export type RecordPayoutInput = z.infer<typeof recordPayoutInput>;

export const confirmPayoutInput = z.strictObject({
  executionId: z.uuid({ message: "Not an execution id." }),
});
export type ConfirmPayoutInput = z.infer<typeof confirmPayoutInput>;
