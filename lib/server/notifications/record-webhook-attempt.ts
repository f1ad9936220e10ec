import "server-only";
import { sqlOf } from "@/lib/server/db/sql";
import { log } from "@/lib/server/log";
import { recordAuditEvent } from "@/lib/server/audit/record-event";
import type { PostResult } from "./post-webhook";
import { transaction } from "@/lib/server/db/transaction";

const SYSTEM_ACTOR = { type: "system", id: "worker" } as const;

/** Thrown to make graphile-worker retry the job (with its backoff). */
export class WebhookAttemptFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookAttemptFailed";
  }
}

/**
 * Records one attempt of a WebhookDelivery (reviewer or decision webhook) with a guarded update
 * (`status = 'pending'`, so a re-run after success does nothing): 2xx → `delivered`; a refused URL or the
 * last attempt → `failed`, each final state with its audit event (`webhook:delivered` / `webhook:failed`);
 * otherwise the attempt is counted and WebhookAttemptFailed is thrown for the queue to retry.
 */
export async function recordWebhookAttempt(
  delivery: { id: string; tenantId: string; proposalId: string | null },
  result: PostResult,
  attempt: { attempt: number; isLastAttempt: boolean },
  what: string,
): Promise<void> {
  const final = result.ok || result.permanent || attempt.isLastAttempt;
  const status = result.ok ? "delivered" : final ? "failed" : "pending";
  const lastError = result.ok ? null : result.error;
  const wlog = log.child({
    component: "webhooks",
    deliveryId: delivery.id,
    tenantId: delivery.tenantId,
    attempt: attempt.attempt,
  });

  await transaction(async (tx) => {
    const updated = await tx.webhookDelivery.updateMany({
      where: { id: delivery.id, status: "pending" },
      data: {
        status,
        attempts: { increment: 1 },
        lastStatus: result.status,
        lastError,
        deliveredAt: result.ok ? new Date() : null,
      },
    });
    if (updated.count !== 1 || status === "pending") return;
    const row = await tx.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id }, select: { attempts: true } });
    const proposal = delivery.proposalId
      ? await tx.proposal.findUnique({
          where: { id: delivery.proposalId },
          select: { id: true, hash: true, traceId: true },
        })
      : null;
    await recordAuditEvent(sqlOf(tx), {
      tenantId: delivery.tenantId,
      traceId: proposal?.traceId ?? `webhook:${delivery.id}`,
      actor: SYSTEM_ACTOR,
      action: result.ok ? "webhook:delivered" : "webhook:failed",
      outcome: result.ok ? "ok" : "internal_error",
      proposal: proposal ? { id: proposal.id, hash: proposal.hash } : null,
      data: { deliveryId: delivery.id, attempts: row.attempts, httpStatus: result.status, error: lastError },
      redaction: { clear: ["deliveryId", "attempts", "httpStatus", "error"] },
    });
  });

  if (result.ok) {
    wlog.info({ httpStatus: result.status }, `${what} delivered`);
    return;
  }
  if (final) {
    wlog.warn({ httpStatus: result.status, error: result.error }, `${what} failed for good`);
    return;
  }
  wlog.info({ httpStatus: result.status, error: result.error }, `${what} attempt failed; will retry`);
  throw new WebhookAttemptFailed(`webhook attempt ${attempt.attempt} failed: ${result.error}`);
}
