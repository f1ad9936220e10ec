// The evidence pack of one proposal (issue 6) and its offline verifier: pure code, no database, no network.
// The file is the RFC 8785 canonical JSON of the pack, so every byte is significant: a changed byte either
// breaks the JSON, its canonical form, the pack digest, or one of the hashes and signatures inside.
import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import { verifyChainEvents, auditEventHash, type ChainedEvent } from "./audit-chain";
import { verifyPasskeyApproval } from "./verify-passkey-approval";

export const EVIDENCE_PACK_FORMAT = "audit-evidence-pack/v1";

/** An audit event as it travels in a pack (occurredAt as ISO string). */
export type PackEvent = Omit<ChainedEvent, "occurredAt"> & { occurredAt: string };

export type EvidencePack = {
  format: typeof EVIDENCE_PACK_FORMAT;
  generatedAt: string;
  tenant: { id: string; slug: string };
  relyingParty: { rpID: string; origin: string };
  proposal: { id: string; traceId: string; status: string; hash: string; canonicalJson: string; createdAt: string };
  approvals: {
    id: string;
    approverId: string;
    authMethod: string;
    authTime: string;
    proposalHash: string;
    createdAt: string;
    passkey: { credentialId: string; publicKey: string; assertion: unknown } | null;
  }[];
  execution: { id: string; status: string; idempotencyKey: string; providerRefundId: string | null; attempts: number; reconciliations: number; settledAt: string | null } | null;
  refunds: { id: string; status: string; providerRefundId: string | null; amountMinor: number; currency: string }[];
  /** The proposal's events (its trace and every event naming the proposal). */
  events: PackEvent[];
  /** The contiguous chain from the first to the last of those events, and the checkpoint it starts after (if purged). */
  chain: { tenantId: string; checkpoint: { lastSeq: number; lastHash: string } | null; segment: PackEvent[] };
  /** sha256 hex of the canonical JSON of the pack without this member. */
  packDigest: string;
};

const sha256 = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");

export function packDigest(pack: Omit<EvidencePack, "packDigest"> & { packDigest?: string }): string {
  const { packDigest: _ignored, ...rest } = pack;
  const json = canonicalize(rest);
  if (json === undefined) throw new Error("pack could not be canonicalized");
  return sha256(json);
}

/** The bytes of a pack file. */
export function serializeEvidencePack(pack: Omit<EvidencePack, "packDigest">): string {
  const full = { ...pack, packDigest: packDigest(pack) };
  return canonicalize(full)!;
}

const toChained = (e: PackEvent): ChainedEvent => ({ ...e, occurredAt: new Date(e.occurredAt) });

export type EvidenceCheck = { name: string; ok: boolean; detail?: string };
export type EvidenceVerdict = { ok: boolean; checks: EvidenceCheck[] };

/** Verifies a pack file's text offline: canonical form, digest, proposal hash, chain, events, approvals and signatures, execution links. */
export async function verifyEvidencePack(text: string): Promise<EvidenceVerdict> {
  const checks: EvidenceCheck[] = [];
  const check = (name: string, ok: boolean, detail?: string) => {
    checks.push(detail === undefined ? { name, ok } : { name, ok, detail });
    return ok;
  };
  let pack: EvidencePack;
  try {
    pack = JSON.parse(text) as EvidencePack;
  } catch (error) {
    check("json", false, error instanceof Error ? error.message : String(error));
    return { ok: false, checks };
  }
  check("canonical form", canonicalize(pack) === text, "the file must be exactly the RFC 8785 canonical JSON of its content");
  if (!check("format", pack?.format === EVIDENCE_PACK_FORMAT, String(pack?.format))) return { ok: false, checks };
  try {
    check("pack digest", packDigest(pack) === pack.packDigest);
    const p = pack.proposal;
    check("proposal hash", sha256(p.canonicalJson) === p.hash, "sha256(canonicalJson) must equal proposal.hash");
    let canonical: { id?: string; tenantId?: string } = {};
    try {
      canonical = JSON.parse(p.canonicalJson) as typeof canonical;
    } catch {
      // reported below
    }
    check("proposal identity", canonical.id === p.id && canonical.tenantId === pack.tenant.id, "canonicalJson names this proposal and tenant");

    const segment = pack.chain.segment.map(toChained);
    const first = segment[0];
    const start = !first ? null : first.seq === 1 ? null : first.prevHash === null ? { lastSeq: first.seq - 1, lastHash: "" } : { lastSeq: first.seq - 1, lastHash: first.prevHash };
    const chain = verifyChainEvents(segment, start);
    check("chain segment", chain.ok && segment.every((e) => e.tenantId === pack.chain.tenantId), chain.ok ? undefined : `seq ${chain.brokenAtSeq}: ${chain.problem}`);
    const cp = pack.chain.checkpoint;
    if (cp && first && first.seq === cp.lastSeq + 1) check("checkpoint link", first.prevHash === cp.lastHash);

    const bySegment = new Map(pack.chain.segment.map((e) => [e.id, e]));
    const eventsOk = pack.events.every((e) => {
      const s = bySegment.get(e.id);
      return s !== undefined && s.hash === e.hash && auditEventHash(toChained(e)) === e.hash;
    });
    check("events in chain", pack.events.length > 0 && eventsOk, "every event recomputes its hash and is the chain's event of that id");
    const ownEvents = pack.events.filter((e) => e.proposalId === p.id);
    check("events name the proposal hash", ownEvents.length > 0 && ownEvents.every((e) => e.proposalHash === null || e.proposalHash === p.hash));

    for (const a of pack.approvals) {
      check(`approval ${a.id} hash`, a.proposalHash === p.hash);
      const event = ownEvents.find((e) => e.action === "proposal:approve" && e.outcome === "ok" && e.actorId === a.approverId);
      check(`approval ${a.id} audited`, event !== undefined, "an ok proposal:approve event by the approver");
      if (a.authMethod === "passkey") {
        if (!a.passkey) {
          check(`approval ${a.id} passkey`, false, "passkey approval without its assertion");
          continue;
        }
        const verdict = await verifyPasskeyApproval({
          evidence: a.passkey.assertion,
          proposalId: p.id,
          proposalHash: p.hash,
          publicKey: a.passkey.publicKey,
          credentialId: a.passkey.credentialId,
          rpID: pack.relyingParty.rpID,
          origin: pack.relyingParty.origin,
        });
        check(`approval ${a.id} passkey signature`, verdict.verified, verdict.verified ? undefined : verdict.reason);
      }
    }
    const ex = pack.execution;
    if (ex) {
      check("execution idempotency key", ex.idempotencyKey === `refund-${p.id}`);
      if (ex.providerRefundId) check("provider refund linked", pack.refunds.some((r) => r.providerRefundId === ex.providerRefundId));
      check("execution audited", ownEvents.some((e) => e.action.startsWith("execution:")));
    }
  } catch (error) {
    check("structure", false, error instanceof Error ? error.message : String(error));
  }
  return { ok: checks.every((c) => c.ok), checks };
}
