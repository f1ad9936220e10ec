import "server-only";
import { randomUUID } from "node:crypto";
import { AppError } from "@/lib/domain/outcome";
import { canonicalProposalJson, hashInputOf } from "@/lib/domain/proposal-hash";
import { EVIDENCE_PACK_FORMAT, serializeEvidencePack, type EvidencePack, type PackEvent } from "@/lib/domain/evidence-pack";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";
import { webAuthnRelyingParty } from "@/lib/server/env";
import { recordAuditEvent } from "./record-event";
import { authorizeAuditAccess } from "./search-audit-events";

const SEGMENT_MAX = 20_000;

type EventRow = Omit<PackEvent, "occurredAt"> & { occurredAt: Date };
const toPackEvent = (e: EventRow): PackEvent => ({
  id: e.id, tenantId: e.tenantId, seq: e.seq, occurredAt: e.occurredAt.toISOString(), traceId: e.traceId, actorType: e.actorType, actorId: e.actorId,
  authMethod: e.authMethod, action: e.action, outcome: e.outcome, proposalId: e.proposalId, proposalHash: e.proposalHash, model: e.model,
  promptVersion: e.promptVersion, channel: e.channel, endUser: e.endUser, data: e.data, fingerprints: e.fingerprints, prevHash: e.prevHash, hash: e.hash,
});

/**
 * The evidence pack of a proposal of the actor's tenant (auditors, admins): a canonical-JSON file that
 * `npm run evidence:verify` checks offline. Building it is an audit event (`audit:evidence_pack`).
 */
export async function buildEvidencePack(actor: Actor, proposalId: string): Promise<{ filename: string; body: string }> {
  await authorizeAuditAccess(actor, "audit:read", "audit:evidence_pack", undefined, { proposalId });
  if (!/^[0-9a-f-]{36}$/.test(proposalId)) throw new AppError("not_found", "No such proposal.");
  const p = await db().proposal.findFirst({
    where: { id: proposalId, tenantId: actor.tenantId },
    include: { tenant: { select: { slug: true } }, approvals: { orderBy: { createdAt: "asc" } }, execution: true, order: { select: { id: true } } },
  });
  if (!p) throw new AppError("not_found", "No such proposal.");
  const tenantId = actor.tenantId;
  const events = await db().auditEvent.findMany({ where: { tenantId, OR: [{ proposalId: p.id }, { traceId: p.traceId }] }, orderBy: { seq: "asc" } });
  const minSeq = events[0]?.seq ?? 0;
  const maxSeq = events[events.length - 1]?.seq ?? 0;
  const segment = events.length ? await db().auditEvent.findMany({ where: { tenantId, seq: { gte: minSeq, lte: maxSeq } }, orderBy: { seq: "asc" }, take: SEGMENT_MAX }) : [];
  const checkpoint = await db().auditCheckpoint.findFirst({ where: { tenantId }, orderBy: { lastSeq: "desc" } });
  const credentialIds = p.approvals.map((a) => a.passkeyCredentialId).filter((x): x is string => !!x);
  const credentials = new Map((await db().passkeyCredential.findMany({ where: { tenantId, id: { in: credentialIds } } })).map((c) => [c.id, c]));
  const refunds = p.execution?.providerRefundId ? await db().refund.findMany({ where: { tenantId, providerRefundId: p.execution.providerRefundId } }) : [];
  const rp = webAuthnRelyingParty();

  const pack: Omit<EvidencePack, "packDigest"> = {
    format: EVIDENCE_PACK_FORMAT,
    generatedAt: new Date().toISOString(),
    tenant: { id: tenantId, slug: p.tenant.slug },
    relyingParty: { rpID: rp.rpID, origin: rp.origin },
    proposal: {
      id: p.id, traceId: p.traceId, status: p.status, hash: p.hash, createdAt: p.createdAt.toISOString(),
      canonicalJson: canonicalProposalJson(hashInputOf(p)),
    },
    approvals: p.approvals.map((a) => {
      const cred = a.passkeyCredentialId ? credentials.get(a.passkeyCredentialId) : undefined;
      const assertion = a.passkeyAssertion as { publicKey?: string } | null;
      return {
        id: a.id, approverId: a.approverId, authMethod: a.authMethod, authTime: a.authTime.toISOString(), proposalHash: a.proposalHash, createdAt: a.createdAt.toISOString(),
        passkey: a.passkeyCredentialId && a.passkeyAssertion
          ? { credentialId: a.passkeyCredentialId, publicKey: cred?.publicKey ?? assertion?.publicKey ?? "", assertion: a.passkeyAssertion }
          : null,
      };
    }),
    execution: p.execution
      ? { id: p.execution.id, status: p.execution.status, idempotencyKey: p.execution.idempotencyKey, providerRefundId: p.execution.providerRefundId, attempts: p.execution.attempts, reconciliations: p.execution.reconciliations, settledAt: p.execution.settledAt?.toISOString() ?? null }
      : null,
    refunds: refunds.map((r) => ({ id: r.id, status: r.status, providerRefundId: r.providerRefundId, amountMinor: r.amountMinor, currency: r.currency })),
    events: events.map(toPackEvent),
    chain: { tenantId, checkpoint: checkpoint ? { lastSeq: checkpoint.lastSeq, lastHash: checkpoint.lastHash } : null, segment: segment.map(toPackEvent) },
  };
  const body = serializeEvidencePack(pack);
  await db().$transaction((tx) =>
    recordAuditEvent(tx, {
      tenantId,
      traceId: p.traceId,
      actor: { type: "staff", id: actor.userId, authMethod: actor.authMethod },
      action: "audit:evidence_pack",
      outcome: "ok",
      proposal: { id: p.id, hash: p.hash },
      data: { events: events.length, segment: segment.length, ref: randomUUID() },
      redaction: { clear: ["events", "segment", "ref"] },
    }),
  );
  return { filename: `evidence-${p.id}.json`, body };
}
