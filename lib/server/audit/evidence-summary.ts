import "server-only";
import { verifyEvidencePack, type EvidencePack } from "@/lib/domain/evidence-pack";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";
import { buildEvidencePack } from "./build-evidence-pack";
import { auditRetiredKeys, auditSigningKey } from "./signing-key";
import { tenantWitnessPolicy } from "./witness-policy";

/**
 * The evidence pack of a proposal said in words, beside its JSON: who prepared it, who approved it (how,
 * with which passkey, when), what was executed, the hash, the checkpoint the proofs lead to, and the
 * verdict of the same offline verifier auditors run (`npm run evidence:verify`) on exactly the bytes the
 * download serves. Names are looked up in the actor's tenant only. Building it is an audited pack build.
 */
export type EvidenceSummary = {
  filename: string;
  generatedAt: string;
  proposal: {
    id: string;
    traceId: string;
    status: string;
    hash: string;
    createdAt: string;
    amountMinor: number | null;
    currency: string | null;
    reason: string | null;
    recipientKind: string | null;
    recipientHolder: string | null;
    requiredApprovals: number | null;
  };
  preparedBy: {
    actorType: string;
    actorId: string | null;
    name: string | null;
    at: string;
    model: string | null;
    channel: string | null;
  } | null;
  approvals: {
    approverId: string;
    name: string | null;
    authMethod: string;
    authTime: string;
    at: string;
    passkey: { credentialId: string; name: string | null } | null;
  }[];
  rejections: { actorId: string | null; name: string | null; at: string }[];
  execution: EvidencePack["execution"];
  refunds: EvidencePack["refunds"];
  checkpoint: { treeSize: number; issuedAt: string; keyId: string } | null;
  events: { total: number; proven: number };
  verification: { ok: boolean; checks: number; failed: { name: string; detail?: string }[] };
};

type HashInput = {
  amount?: { minor?: number; currency?: string };
  recipient?: { kind?: string; holder?: string };
  reason?: string;
  requiredApprovals?: number;
};

export async function getEvidenceSummary(actor: Actor, proposalId: string): Promise<EvidenceSummary> {
  // Authorizes (audit:read, the actor's tenant) and records the build, like the download.
  const { filename, body } = await buildEvidencePack(actor, proposalId);
  const pack = JSON.parse(body) as EvidencePack;
  const verdict = await verifyEvidencePack(body, {
    publicKey: auditSigningKey().publicKey,
    retiredKeys: auditRetiredKeys(),
    policy: await tenantWitnessPolicy(actor.tenantId),
  });
  const tenantId = actor.tenantId;
  const p = pack.proposal;
  let input: HashInput = {};
  try {
    input = JSON.parse(p.canonicalJson) as HashInput;
  } catch {
    // the verdict reports a malformed canonical form
  }
  const own = pack.events.filter((e) => e.proposalId === p.id);
  const prepared =
    own.find((e) => e.action === "tool:prepare_refund" && e.outcome === "approval_required") ??
    own.find((e) => e.action === "tool:prepare_refund");
  const rejected = own.filter((e) => e.action === "proposal:reject" && e.outcome === "ok");
  const staffIds = [
    ...new Set([
      ...pack.approvals.map((a) => a.approverId),
      ...rejected.map((e) => e.actorId).filter((x): x is string => !!x),
    ]),
  ];
  const credentialIds = pack.approvals.map((a) => a.passkey?.credentialId).filter((x): x is string => !!x);
  const [staff, agent, credentials] = await Promise.all([
    db().staffUser.findMany({
      where: { tenantId, id: { in: staffIds } },
      select: { id: true, name: true, email: true },
    }),
    prepared?.actorType === "agent" && prepared.actorId && /^[0-9a-f-]{36}$/i.test(prepared.actorId)
      ? db().agentKey.findFirst({ where: { tenantId, id: prepared.actorId }, select: { name: true } })
      : null,
    db().passkeyCredential.findMany({
      where: { tenantId, id: { in: credentialIds } },
      select: { id: true, name: true },
    }),
  ]);
  const staffName = new Map(staff.map((s) => [s.id, `${s.name} <${s.email}>`]));
  const passkeyName = new Map(credentials.map((c) => [c.id, c.name]));
  return {
    filename,
    generatedAt: pack.generatedAt,
    proposal: {
      id: p.id,
      traceId: p.traceId,
      status: p.status,
      hash: p.hash,
      createdAt: p.createdAt,
      amountMinor: input.amount?.minor ?? null,
      currency: input.amount?.currency ?? null,
      reason: input.reason ?? null,
      recipientKind: input.recipient?.kind ?? null,
      recipientHolder: input.recipient?.holder ?? null,
      requiredApprovals: input.requiredApprovals ?? null,
    },
    preparedBy: prepared
      ? {
          actorType: prepared.actorType,
          actorId: prepared.actorId,
          name: agent?.name ?? null,
          at: prepared.occurredAt,
          model: prepared.model,
          channel: prepared.channel,
        }
      : null,
    approvals: pack.approvals.map((a) => ({
      approverId: a.approverId,
      name: staffName.get(a.approverId) ?? null,
      authMethod: a.authMethod,
      authTime: a.authTime,
      at: a.createdAt,
      passkey: a.passkey
        ? { credentialId: a.passkey.credentialId, name: passkeyName.get(a.passkey.credentialId) ?? null }
        : null,
    })),
    rejections: rejected.map((e) => ({
      actorId: e.actorId,
      name: e.actorId ? (staffName.get(e.actorId) ?? null) : null,
      at: e.occurredAt,
    })),
    execution: pack.execution,
    refunds: pack.refunds,
    checkpoint: pack.checkpoint
      ? { treeSize: pack.checkpoint.treeSize, issuedAt: pack.checkpoint.issuedAt, keyId: pack.checkpoint.keyId }
      : null,
    events: { total: pack.events.length, proven: pack.events.filter((e) => e.inclusionProof !== null).length },
    verification: {
      ok: verdict.ok,
      checks: verdict.checks.length,
      failed: verdict.checks
        .filter((c) => !c.ok)
        .map((c) => (c.detail === undefined ? { name: c.name } : { name: c.name, detail: c.detail })),
    },
  };
}
