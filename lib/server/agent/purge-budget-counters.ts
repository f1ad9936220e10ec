import "server-only";
import { db } from "@/lib/server/db/client";

/** How long counters are kept: window counters past their window are useless after a day; trace counters
 * keep a spent trace spent for a week (a conversation does not resume after that). */
export const BUDGET_COUNTER_RETENTION = { windowHours: 24, traceDays: 7 } as const;

/**
 * Deletes old budget counters (job purge_gateway_counters, hourly). Idempotent; safe on several workers at
 * once (a row deleted twice is simply not found the second time).
 */
export async function purgeBudgetCounters(now: Date = new Date()): Promise<{ windows: number; traces: number }> {
  const windowCutoff = new Date(now.getTime() - BUDGET_COUNTER_RETENTION.windowHours * 3600_000);
  const traceCutoff = new Date(now.getTime() - BUDGET_COUNTER_RETENTION.traceDays * 86_400_000);
  const windows = await db().agentWindowCounter.deleteMany({ where: { windowStart: { lt: windowCutoff } } });
  const traces = await db().agentTraceCounter.deleteMany({ where: { updatedAt: { lt: traceCutoff } } });
  return { windows: windows.count, traces: traces.count };
}
