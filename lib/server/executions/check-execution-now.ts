import "server-only";
import { AppError } from "@/lib/domain/outcome";
import { assertCan } from "@/lib/domain/permissions";
import { checkExecutionNowInput } from "@/lib/schemas/executions";
import { db } from "@/lib/server/db/client";
import { recordAuditEvent } from "@/lib/server/audit/record-event";
import { enqueueJob } from "@/lib/server/jobs/enqueue";
import type { Actor } from "@/lib/server/auth/actor";

export type CheckNowResult = { executionId: string; status: string; queued: boolean };

/**
 * "Check now": asks the reconciler to look at an unsettled execution at once. It only enqueues
 * `reconcile_execution` (same job key as the scheduled one, so it moves that job forward instead of
 * adding a second); the reconciler asks the provider first and re-sends with the same key only if the
 * provider has no such refund. There is deliberately no "retry/re-send" action.
 */
export async function checkExecutionNow(actor: Actor, raw: unknown): Promise<CheckNowResult> {
  assertCan(actor.roles, "executions:reconcile");
  const parsed = checkExecutionNowInput.safeParse(raw);
  if (!parsed.success) throw new AppError("invalid_arguments", "Not an execution id.");
  const { executionId } = parsed.data;
  return db().$transaction(
    async (tx) => {
      const ex = await tx.execution.findFirst({ where: { id: executionId, tenantId: actor.tenantId }, include: { proposal: { select: { id: true, hash: true, traceId: true } } } });
      if (!ex) throw new AppError("not_found", "No such execution.");
      const settled = ex.status === "succeeded" || ex.status === "failed";
      if (!settled) await enqueueJob(tx, "reconcile_execution", { executionId: ex.id }, { jobKey: `reconcile:${ex.id}`, runAt: new Date() });
      await recordAuditEvent(tx, {
        tenantId: actor.tenantId,
        traceId: ex.proposal.traceId,
        actor: { type: "staff", id: actor.userId, authMethod: actor.authMethod },
        action: "execution:check_now",
        outcome: settled ? "ok" : "result_pending",
        proposal: { id: ex.proposal.id, hash: ex.proposal.hash },
        data: { executionId: ex.id, status: ex.status, queued: !settled },
        redaction: { clear: ["executionId", "status", "queued"] },
      });
      return { executionId: ex.id, status: ex.status, queued: !settled };
    },
    { maxWait: 10_000, timeout: 15_000 },
  );
}
