import "server-only";
import { randomUUID } from "node:crypto";
import { AppError } from "@/lib/domain/outcome";
import { canonicalProposalJson, hashInputOf } from "@/lib/domain/proposal-hash";
import {
  EVIDENCE_PACK_FORMAT,
  executionFacts,
  serializeEvidencePack,
  type EvidencePack,
  type PackEvent,
} from "@/lib/domain/evidence-pack";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";
import { sqlPool } from "@/lib/server/db/pg";
import { webAuthnRelyingParty } from "@/lib/server/env";
import { inclusionProof } from "@/lib/domain/merkle";
import { auditContentOf } from "@/lib/domain/audit-log";
import { recordStaffEvent } from "./record-event";
import { leafIndexesOf } from "./audit-event-view";
import { getCheckpointNote, witnessedCheckpointFor } from "./get-checkpoint-note";
import { latestCheckpoint, toSignedCheckpoint, withNodes } from "./tree-store";
import { authorizeAuditAccess } from "./search-audit-events";
import type { PackConfirmation } from "@/lib/domain/evidence-pack";

/** A decided confirm link as the pack carries it: the decision, who, the hashes issued and shown, when, the browser. */
const packConfirmation = (c: {
  id: string;
  decision: string | null;
  endUserSub: string;
  proposalHash: string;
  shownHash: string | null;
  usedAt: Date | null;
  userAgent: string | null;
}): PackConfirmation => ({
  id: c.id,
  decision: c.decision ?? "",
  endUserSub: c.endUserSub,
  issuedForHash: c.proposalHash,
  proposalHash: c.shownHash ?? "",
  decidedAt: c.usedAt?.toISOString() ?? "",
  userAgent: c.userAgent,
});

const EVENTS_MAX = 2_000;
/** How long a pack waits for the sequencer to integrate the proposal's newest events (it runs every ~100 ms). */
const INTEGRATION_WAIT_MS = 3_000;

type EventRow = Omit<PackEvent, "occurredAt" | "leafIndex" | "inclusionProof"> & { occurredAt: Date };
const toPackEvent = (e: EventRow, leafIndex: number | null, inclusionProof: string[] | null): PackEvent => ({
  ...auditContentOf(e),
  occurredAt: e.occurredAt.toISOString(),
  leafIndex,
  hash: e.hash,
  inclusionProof,
});

/**
 * The checkpoint a pack leads to and its cosigned C2SP note: one that covers the pack's integrated events and
 * meets the tenant's witness quorum, waiting (within the same few seconds as integration) for the witnesses to
 * cosign a new one — submission runs in the background after each batch. Without a quorum, or when it is not
 * met in time, the newest covering checkpoint with the most cosignatures (the verifier's policy then decides).
 * Checkpoints from before the witnessed log have no note: the newest checkpoint, without one.
 */
async function packCheckpoint(tenantId: string, minSize: number) {
  const tenant = await db().tenant.findUniqueOrThrow({ where: { id: tenantId }, select: { witnessQuorum: true } });
  let chosen = await witnessedCheckpointFor(tenantId, minSize, tenant.witnessQuorum);
  for (
    const until = Date.now() + INTEGRATION_WAIT_MS;
    chosen && chosen.cosigned < tenant.witnessQuorum && Date.now() < until;
  ) {
    await new Promise((r) => setTimeout(r, 100));
    chosen = await witnessedCheckpointFor(tenantId, minSize, tenant.witnessQuorum);
  }
  if (!chosen) return { checkpoint: await latestCheckpoint(db(), tenantId), cosignedCheckpoint: null };
  const row = await db().auditSignedCheckpoint.findUniqueOrThrow({
    where: { logId_treeSize: { logId: tenantId, treeSize: chosen.treeSize } },
  });
  return {
    checkpoint: toSignedCheckpoint(row),
    cosignedCheckpoint: await getCheckpointNote(tenantId, chosen.treeSize, { currentWitnesses: true }),
  };
}

/**
 * The evidence pack of a proposal of the actor's tenant (auditors, admins): a canonical-JSON file that
 * `npm run evidence:verify` checks offline. Building it is an audit event (`audit:evidence_pack`).
 */
export async function buildEvidencePack(actor: Actor, proposalId: string): Promise<{ filename: string; body: string }> {
  await authorizeAuditAccess(actor, "audit:read", "audit:evidence_pack", undefined, { proposalId });
  if (!/^[0-9a-f-]{36}$/.test(proposalId)) throw new AppError("not_found", "No such proposal.");
  const p = await db().proposal.findFirst({
    where: { id: proposalId, tenantId: actor.tenantId },
    include: {
      tenant: { select: { slug: true } },
      approvals: { orderBy: { createdAt: "asc" } },
      // The customer's decisions on their confirm links (docs/agent-api.md, "Customer confirmation").
      customerConfirmations: { where: { usedAt: { not: null } }, orderBy: { usedAt: "asc" } },
      // A follow-up step is authorised by its parent's approval: the pack carries that proposal and its approvals.
      parent: { include: { approvals: { orderBy: { createdAt: "asc" } } } },
      execution: true,
      order: { select: { id: true } },
    },
  });
  if (!p) throw new AppError("not_found", "No such proposal.");
  const tenantId = actor.tenantId;
  const events = await db().auditEvent.findMany({
    where: { tenantId, OR: [{ proposalId: p.id }, { traceId: p.traceId }] },
    orderBy: { pos: "asc" },
    take: EVENTS_MAX,
  });
  const ids = events.map((e) => e.id);
  let leafIndex = await leafIndexesOf(db(), ids);
  for (const until = Date.now() + INTEGRATION_WAIT_MS; leafIndex.size < ids.length && Date.now() < until;) {
    await new Promise((r) => setTimeout(r, 100));
    leafIndex = await leafIndexesOf(db(), ids);
  }
  const { checkpoint, cosignedCheckpoint } = await packCheckpoint(
    tenantId,
    Math.max(0, ...[...leafIndex.values()].map((i) => i + 1)),
  );
  // Every proof against the newest signed checkpoint, from one fetch of the stored nodes they need.
  const proven = new Set(checkpoint ? ids.filter((id) => (leafIndex.get(id) ?? Infinity) < checkpoint.treeSize) : []);
  const proofs = checkpoint
    ? await withNodes(
        sqlPool(),
        tenantId,
        (g) => new Map([...proven].map((id) => [id, inclusionProof(leafIndex.get(id)!, checkpoint.treeSize, g)])),
      )
    : new Map<string, string[]>();
  const parent = p.parent && p.parent.tenantId === tenantId ? p.parent : null;
  const credentialIds = [...p.approvals, ...(parent?.approvals ?? [])]
    .map((a) => a.passkeyCredentialId)
    .filter((x): x is string => !!x);
  const credentials = new Map(
    (await db().passkeyCredential.findMany({ where: { tenantId, id: { in: credentialIds } } })).map((c) => [c.id, c]),
  );
  const refunds = p.execution?.providerRefundId
    ? await db().refund.findMany({ where: { tenantId, providerRefundId: p.execution.providerRefundId } })
    : [];
  const rp = webAuthnRelyingParty();
  const packApproval = (a: (typeof p.approvals)[number]) => {
    const cred = a.passkeyCredentialId ? credentials.get(a.passkeyCredentialId) : undefined;
    const assertion = a.passkeyAssertion as { publicKey?: string } | null;
    return {
      id: a.id,
      approverId: a.approverId,
      authMethod: a.authMethod,
      authTime: a.authTime.toISOString(),
      proposalHash: a.proposalHash,
      createdAt: a.createdAt.toISOString(),
      passkey:
        a.passkeyCredentialId && a.passkeyAssertion
          ? {
              credentialId: a.passkeyCredentialId,
              publicKey: cred?.publicKey ?? assertion?.publicKey ?? "",
              assertion: a.passkeyAssertion,
            }
          : null,
    };
  };

  const pack: Omit<EvidencePack, "packDigest"> = {
    format: EVIDENCE_PACK_FORMAT,
    generatedAt: new Date().toISOString(),
    tenant: { id: tenantId, slug: p.tenant.slug },
    relyingParty: { rpID: rp.rpID, origin: rp.origin },
    proposal: {
      id: p.id,
      traceId: p.traceId,
      status: p.status,
      hash: p.hash,
      createdAt: p.createdAt.toISOString(),
      canonicalJson: canonicalProposalJson(hashInputOf(p)),
    },
    approvals: p.approvals.map(packApproval),
    ...(p.customerConfirmations.length ? { customerConfirmations: p.customerConfirmations.map(packConfirmation) } : {}),
    ...(parent
      ? {
          authority: {
            proposal: { id: parent.id, hash: parent.hash, canonicalJson: canonicalProposalJson(hashInputOf(parent)) },
            approvals: parent.approvals.map(packApproval),
          },
        }
      : {}),
    execution: p.execution ? { id: p.execution.id, ...executionFacts(p.execution) } : null,
    refunds: refunds.map((r) => ({
      id: r.id,
      status: r.status,
      providerRefundId: r.providerRefundId,
      amountMinor: r.amountMinor,
      currency: r.currency,
    })),
    events: events.map((e) => toPackEvent(e, proven.has(e.id) ? leafIndex.get(e.id)! : null, proofs.get(e.id) ?? null)),
    checkpoint,
    cosignedCheckpoint,
  };
  const body = serializeEvidencePack(pack);
  await recordStaffEvent(sqlPool(), actor, {
    traceId: p.traceId,
    action: "audit:evidence_pack",
    outcome: "ok",
    proposal: { id: p.id, hash: p.hash },
    data: { events: events.length, proven: proven.size, treeSize: checkpoint?.treeSize ?? 0, ref: randomUUID() },
    redaction: { clear: ["events", "proven", "treeSize", "ref"] },
  });
  return { filename: `evidence-${p.id}.json`, body };
}
