import "server-only";
import { AppError } from "@/lib/domain/outcome";
import { parseInput } from "@/lib/domain/validation";
import { isExecutionSettled } from "@/lib/domain/execution-state";
import { assertCan } from "@/lib/domain/permissions";
import { checkExecutionNowInput } from "@/lib/schemas/executions";
import type { CheckNowResult } from "@/lib/schemas/execution-dto";
import { sqlOf } from "@/lib/server/db/sql";
import { recordStaffEvent } from "@/lib/server/audit/record-event";
import { enqueueJob } from "@/lib/server/jobs/enqueue";
import type { Actor } from "@/lib/server/auth/actor";
import { transaction } from "@/lib/server/db/transaction";

export type { CheckNowResult } from "@/lib/schemas/execution-dto";

/**
 * "Check now": asks the reconciler to look at an unsettled execution at once. It only enqueues
 * `reconcile_execution` (same job key as the scheduled one, so it moves that job forward instead of
 * adding a second); the reconciler asks the provider first and re-sends with the same key only if the
 * provider has no such refund. There is deliberately no "retry/re-send" action.
 */
export async function checkExecutionNow(actor: Actor, raw: unknown): Promise<CheckNowResult> {
  assertCan(actor.roles, "executions:reconcile");
  const { executionId } = parseInput(checkExecutionNowInput, raw, "Not an execution id.");
  return transaction(
    async (tx) => {
      const ex = await tx.execution.findFirst({
        where: { id: executionId, tenantId: actor.tenantId },
        include: { proposal: { select: { id: true, hash: true, traceId: true } } },
      });
      if (!ex) throw new AppError("not_found", "No such execution.");
      const settled = isExecutionSettled(ex.status);
      if (!settled) await enqueueJob(sqlOf(tx), "reconcile_execution", { executionId: ex.id }, { runAt: new Date() });
      await recordStaffEvent(sqlOf(tx), actor, {
        traceId: ex.proposal.traceId,
        action: "execution:check_now",
        outcome: settled ? "ok" : "result_pending",
        proposal: { id: ex.proposal.id, hash: ex.proposal.hash },
        data: { executionId: ex.id, status: ex.status, queued: !settled },
        redaction: { clear: ["executionId", "status", "queued"] },
      });
      return { executionId: ex.id, status: ex.status, queued: !settled, reconciliations: ex.reconciliations };
    },
    { maxWait: 10_000, timeout: 15_000 },
  );
}
