import "server-only";
import { SpanKind } from "@opentelemetry/api";
import { db } from "@/lib/server/db/client";
import type { Actor } from "@/lib/server/auth/actor";
import { metrics } from "./metrics";
import { contextFrom, linkToActive, withSpan } from "./tracing";
import { proposalStatus } from "@/lib/domain/proposal-state";
import { isUuid } from "@/lib/domain/validation";

type Decided = { status: string };

/**
 * `approve_proposal` / `reject_proposal` around a reviewer's decision (the route calls the use case inside):
 * a child of the span that prepared the proposal (its stored traceparent), so the decision, and the execution
 * job it enqueues, join the agent's trace; the reviewer's HTTP request is linked. Attributes: the proposal's id
 * and hash, the decision, the reviewer's staff id, the wait since the proposal was made, the resulting status
 * or refusal code. A final decision (approved, rejected) moves the proposal counter and the wait histogram.
 */
export async function traceDecision<R extends Decided>(
  kind: "approve" | "reject",
  actor: Actor,
  proposalId: string,
  run: () => Promise<R>,
): Promise<R> {
  // Scoped to the reviewer's tenant: another tenant's proposal is not found here either (the use case refuses it).
  const p = isUuid(proposalId)
    ? await db().proposal.findFirst({
        where: { id: proposalId, tenantId: actor.tenantId },
        select: { hash: true, traceparent: true, createdAt: true, kind: true },
      })
    : null;
  const waitSeconds = p ? Math.max(0, (Date.now() - p.createdAt.getTime()) / 1000) : null;
  const attributes = {
    "approvalgw.decision": kind,
    "approvalgw.tenant.id": actor.tenantId,
    "approvalgw.reviewer.staff_id": actor.userId,
    ...(p ? { "approvalgw.proposal.id": proposalId, "approvalgw.proposal.hash": p.hash } : {}),
    ...(waitSeconds !== null ? { "approvalgw.approval.wait_seconds": Math.round(waitSeconds * 1000) / 1000 } : {}),
  };
  const stored = p?.traceparent ?? null;
  const parent = contextFrom(stored);
  return withSpan(
    `${kind}_proposal`,
    attributes,
    async (span) => {
      const result = await run();
      span.setAttribute("approvalgw.outcome", result.status);
      if (result.status === proposalStatus.approved || result.status === proposalStatus.rejected) {
        metrics().proposals.inc({ kind: p?.kind ?? "unknown", outcome: result.status });
        if (waitSeconds !== null) metrics().approvalWait.observe(waitSeconds);
      }
      return result;
    },
    { parent, links: stored ? linkToActive() : [], kind: SpanKind.INTERNAL },
  );
}
