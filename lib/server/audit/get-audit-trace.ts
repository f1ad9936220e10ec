import "server-only";
import { verifyPasskeyApproval } from "@/lib/domain/verify-passkey-approval";
import { executionFacts, type ExecutionFacts } from "@/lib/domain/evidence-pack";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";
import { webAuthnRelyingParty } from "@/lib/server/env";
import { recordStaffEvent } from "./record-event";
import { auditLookupTraceId, authorizeAuditAccess } from "./search-audit-events";
import { isUuid } from "@/lib/domain/validation";
import { leafIndexesOf, toAuditEventView, type AuditEventView } from "./audit-event-view";
import { sqlPool } from "@/lib/server/db/pg";
import type { ReviewField } from "@/lib/actions/kind.server";
import { kindFieldsOf } from "@/lib/server/proposals/kind-review";

export type TraceStep = AuditEventView & {
  /** The staff member's or agent key's name (this tenant's), else null. */
  actorName: string | null;
  deltaMs: number;
  stage: "agent" | "proposal" | "approval" | "execution" | "provider" | "reconciliation" | "audit" | "other";
};

export type AuditTrace = {
  traceId: string;
  startedAt: string | null;
  steps: TraceStep[];
  proposals: {
    id: string;
    /** The action kind: a refund's facts are its amount and recipient; another kind's are its review `fields`. */
    kind: string;
    status: string;
    hash: string;
    amountMinor: number | null;
    currency: string | null;
    recipientDisplay: string | null;
    /** A non-refund kind's labelled values from the hashed params (null for the refund, or a kind not known here). */
    fields: ReviewField[] | null;
    reason: string;
    requiredApprovals: number;
    expiresAt: string;
    approvals: {
      id: string;
      approverName: string;
      authMethod: string;
      authTime: string;
      createdAt: string;
      passkeyCheck: "verified" | "failed" | "not_applicable";
      passkeyDetail: string | null;
    }[];
    execution: ExecutionFacts | null;
  }[];
  legalHold: { reason: string; createdAt: string } | null;
};

function stageOf(action: string): TraceStep["stage"] {
  // Every kind's prepare tool (prepare_refund, prepare_address_change…) makes the proposal.
  if (action.startsWith("tool:prepare_")) return "proposal";
  if (action.startsWith("tool:") || action === "tool-call") return "agent";
  if (action === "proposal:approve" || action === "proposal:reject") return "approval";
  if (action.startsWith("proposal:")) return "proposal";
  // Provider answers (send response, webhook or reconciler finding): the settled / pending / unknown states.
  if (["execution:succeeded", "execution:failed", "execution:pending", "execution:unknown"].includes(action))
    return "provider";
  if (
    ["execution:resend", "execution:check_now", "execution:duplicate_detected"].includes(action) ||
    action.includes("reconcil")
  )
    return "reconciliation";
  if (action.startsWith("execution:")) return "execution";
  if (action.startsWith("audit:")) return "audit";
  return "other";
}

/**
 * The whole story of a trace in the actor's tenant: its events and every event of the proposals it made
 * (approvals and execution run under their own trace ids), in write order with the delta from the first;
 * the proposals with their numbers and hash; each approval with its authentication method and, for a
 * passkey, the offline signature check. Opening a trace is itself an audit event.
 */
export async function getAuditTrace(actor: Actor, traceId: string): Promise<AuditTrace> {
  const id = traceId.trim().slice(0, 128);
  await authorizeAuditAccess(actor, "audit:trace", "audit:view_trace", id, { traceId: id });
  const view = await loadAuditTrace(actor, id);
  await recordStaffEvent(sqlPool(), actor, {
    traceId: auditLookupTraceId("view", id),
    action: "audit:view_trace",
    outcome: view.steps.length ? "ok" : "not_found",
    data: { traceId: id, events: view.steps.length },
    redaction: { clear: ["traceId", "events"] },
  });
  return view;
}

/** The trace as its page shows it, for an actor already authorised to look it up (getAuditTrace, exportAuditTrace). */
export async function loadAuditTrace(actor: Actor, id: string): Promise<AuditTrace> {
  const tenantId = actor.tenantId;
  const proposals = await db().proposal.findMany({
    where: { tenantId, traceId: id },
    include: {
      approvals: { orderBy: { createdAt: "asc" }, include: { approver: { select: { name: true } } } },
      execution: true,
    },
    orderBy: { createdAt: "asc" },
  });
  const ids = proposals.map((p) => p.id);
  const rows = await db().auditEvent.findMany({
    where: { tenantId, OR: [{ traceId: id }, ...(ids.length ? [{ proposalId: { in: ids } }] : [])] },
    orderBy: { pos: "asc" },
    take: 2000,
  });
  const first = rows[0]?.occurredAt.getTime() ?? 0;
  const leafIndex = await leafIndexesOf(
    db(),
    rows.map((r) => r.id),
  );
  const credentialIds = proposals
    .flatMap((p) => p.approvals.map((a) => a.passkeyCredentialId))
    .filter((x): x is string => !!x);
  const keys = new Map(
    (
      await db().passkeyCredential.findMany({
        where: { tenantId, id: { in: credentialIds } },
        select: { id: true, publicKey: true },
      })
    ).map((c) => [c.id, c.publicKey]),
  );
  // Who each actor is, by name: staff members and agent keys of this tenant only (an id that is not one of
  // them names nobody here and stays an id).
  const actorIds = [...new Set(rows.filter((r) => r.actorId && isUuid(r.actorId)).map((r) => r.actorId!))];
  const [staffNames, agentNames] = actorIds.length
    ? await Promise.all([
        db().staffUser.findMany({ where: { tenantId, id: { in: actorIds } }, select: { id: true, name: true } }),
        db().agentKey.findMany({ where: { tenantId, id: { in: actorIds } }, select: { id: true, name: true } }),
      ])
    : [[], []];
  const names = {
    staff: new Map(staffNames.map((s) => [s.id, s.name])),
    agent: new Map(agentNames.map((k) => [k.id, k.name])),
  };
  const nameOf = (r: (typeof rows)[number]) =>
    r.actorId && (r.actorType === "staff" || r.actorType === "agent")
      ? (names[r.actorType].get(r.actorId) ?? null)
      : null;
  const rp = webAuthnRelyingParty();
  const hold = await db().auditLegalHold.findUnique({ where: { tenantId_traceId: { tenantId, traceId: id } } });

  const view: AuditTrace = {
    traceId: id,
    startedAt: rows[0]?.occurredAt.toISOString() ?? null,
    steps: rows.map((r) => ({
      ...toAuditEventView(r, leafIndex.get(r.id) ?? null),
      actorName: nameOf(r),
      deltaMs: r.occurredAt.getTime() - first,
      stage: stageOf(r.action),
    })),
    legalHold: hold && !hold.releasedAt ? { reason: hold.reason, createdAt: hold.createdAt.toISOString() } : null,
    proposals: await Promise.all(
      proposals.map(async (p) => ({
        id: p.id,
        kind: p.kind,
        status: p.status,
        hash: p.hash,
        amountMinor: p.amountMinor,
        currency: p.currency?.trim() ?? null,
        recipientDisplay: p.recipientDisplay,
        fields: kindFieldsOf(p.kind, p.params),
        reason: p.reason,
        requiredApprovals: p.requiredApprovals,
        expiresAt: p.expiresAt.toISOString(),
        approvals: await Promise.all(
          p.approvals.map(async (a) => {
            let passkeyCheck: "verified" | "failed" | "not_applicable" = "not_applicable";
            let passkeyDetail: string | null = null;
            if (a.authMethod === "passkey") {
              const publicKey = (a.passkeyCredentialId && keys.get(a.passkeyCredentialId)) ?? "";
              const verdict = await verifyPasskeyApproval({
                evidence: a.passkeyAssertion,
                proposalId: p.id,
                proposalHash: a.proposalHash,
                publicKey,
                credentialId: a.passkeyCredentialId ?? undefined,
                rpID: rp.rpID,
                origin: rp.origin,
              });
              passkeyCheck = verdict.verified ? "verified" : "failed";
              passkeyDetail = verdict.verified ? null : verdict.reason;
            }
            return {
              id: a.id,
              approverName: a.approver.name,
              authMethod: a.authMethod,
              authTime: a.authTime.toISOString(),
              createdAt: a.createdAt.toISOString(),
              passkeyCheck,
              passkeyDetail,
            };
          }),
        ),
        execution: p.execution ? executionFacts(p.execution) : null,
      })),
    ),
  };
  return view;
}
