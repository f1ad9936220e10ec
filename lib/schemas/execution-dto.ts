// What the execution endpoints answer (DTOs), validated by the client fetcher (lib/queries/executions.ts).
import { z } from "zod";
import { executionStates } from "@/lib/domain/execution-state";

const iso = z.string();
export const executionStateSchema = z.enum(executionStates);

export const executionRowDto = z.object({
  id: z.string(),
  proposalId: z.string(),
  orderNumber: z.string(),
  amountMinor: z.number().int(),
  currency: z.string(),
  status: executionStateSchema,
  attempts: z.number().int(),
  reconciliations: z.number().int(),
  providerRefundId: z.string().nullable(),
  idempotencyKey: z.string(),
  failureReason: z.string().nullable(),
  lastError: z.string().nullable(),
  createdAt: iso,
  lastAttemptAt: iso.nullable(),
  settledAt: iso.nullable(),
});
export type ExecutionRow = z.infer<typeof executionRowDto>;

export const executionsPageDto = z.object({ rows: z.array(executionRowDto), nextCursor: z.string().nullable() });
export type ExecutionsPage = z.infer<typeof executionsPageDto>;

export const inDoubtRowDto = executionRowDto.extend({ why: z.enum(["unknown", "stale_sending", "long_pending"]) });
export type InDoubtRow = z.infer<typeof inDoubtRowDto>;

export const chartPointDto = z.object({ at: iso, inDoubt: z.number().int(), oldestAgeSeconds: z.number() });
export type ChartPoint = z.infer<typeof chartPointDto>;

export const executionOverviewDto = z.object({
  counts: z.record(executionStateSchema, z.number().int()),
  inDoubt: z.array(inDoubtRowDto),
  chart: z.array(chartPointDto),
  staleSendingMs: z.number(),
  longPendingMs: z.number(),
});
export type ExecutionOverview = z.infer<typeof executionOverviewDto>;

export const checkNowResultDto = z.object({ executionId: z.string(), status: executionStateSchema, queued: z.boolean() });
export type CheckNowResult = z.infer<typeof checkNowResultDto>;
