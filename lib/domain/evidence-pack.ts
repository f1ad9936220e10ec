// The evidence pack of one proposal (issues 6, 14) and its offline verifier: pure code, no database, no
// network, and no trust in the pack's author: authenticity comes from the log's Ed25519 signature on the
// checkpoint, checked with a public key the verifier brings. The file is the RFC 8785 canonical JSON of the
// pack, so every byte is significant: a changed byte either breaks the JSON, its canonical form, the pack
// digest, or one of the hashes, proofs and signatures inside.
import { createHash, type KeyObject } from "node:crypto";
import canonicalize from "canonicalize";
import {
  auditLeafHash,
  checkpointSigner,
  publicKeyFrom,
  retiredKeyLabel,
  type LoggedEvent,
  type RetiredKey,
  type SignedCheckpoint,
} from "./audit-log";
import { verifyInclusion } from "./merkle";
import { actionIdempotencyKey } from "./execution-state";
import { SIG_ED25519, parseCheckpointText, parseNote, parseVkey, verifiedBy, vkeyOf } from "./signed-note";
import { verifyPasskeyApproval } from "./verify-passkey-approval";
import { checkQuorum, type WitnessPolicy } from "./witness-policy";

/** v3 adds the cosigned C2SP checkpoint; v2 packs (without it) still verify. */
export const EVIDENCE_PACK_FORMAT = "audit-evidence-pack/v3";
const READABLE_FORMATS: readonly string[] = ["audit-evidence-pack/v2", EVIDENCE_PACK_FORMAT];

/** An audit event as it travels in a pack (occurredAt as ISO string) with its RFC 9162 inclusion proof
 *  against the pack's signed checkpoint (null when it was not integrated yet: the pack then fails). */
export type PackEvent = Omit<LoggedEvent, "occurredAt"> & { occurredAt: string; inclusionProof: string[] | null };

/** What an evidence pack and a trace view say about a proposal's execution (how repetition was avoided). */
export type ExecutionFacts = {
  status: string;
  idempotencyKey: string;
  providerRefundId: string | null;
  attempts: number;
  reconciliations: number;
  settledAt: string | null;
  /**
   * The shop's reference for an action carried out on the tenant's action endpoint (an address change…): what the
   * shop answered it did, under the execution's idempotency key. Absent for refunds (and in older packs).
   */
  actionReference?: string;
  /**
   * A manual payout (a payment no provider holds): the transfer's reference, the ops member who recorded it and,
   * at or above four-eyes, the second person who confirmed it. Absent for provider refunds (and in older packs).
   */
  payout?: {
    reference: string | null;
    recordedBy: string | null;
    recordedAt: string | null;
    confirmedBy: string | null;
    confirmedAt: string | null;
  };
};

type ExecutionRow = Omit<ExecutionFacts, "settledAt" | "payout" | "actionReference"> & {
  settledAt: Date | null;
  actionReference?: string | null;
  payoutReference?: string | null;
  payoutRecordedById?: string | null;
  payoutRecordedAt?: Date | null;
  payoutConfirmedById?: string | null;
  payoutConfirmedAt?: Date | null;
};

export function executionFacts(e: ExecutionRow): ExecutionFacts {
  const { status, idempotencyKey, providerRefundId, attempts, reconciliations } = e;
  const payout =
    e.payoutRecordedById || status === "awaiting_payout"
      ? {
          payout: {
            reference: e.payoutReference ?? null,
            recordedBy: e.payoutRecordedById ?? null,
            recordedAt: e.payoutRecordedAt?.toISOString() ?? null,
            confirmedBy: e.payoutConfirmedById ?? null,
            confirmedAt: e.payoutConfirmedAt?.toISOString() ?? null,
          },
        }
      : {};
  return {
    status,
    idempotencyKey,
    providerRefundId,
    attempts,
    reconciliations,
    settledAt: e.settledAt?.toISOString() ?? null,
    ...(e.actionReference ? { actionReference: e.actionReference } : {}),
    ...payout,
  };
}

export type PackApproval = {
  id: string;
  approverId: string;
  authMethod: string;
  authTime: string;
  proposalHash: string;
  createdAt: string;
  passkey: { credentialId: string; publicKey: string; assertion: unknown } | null;
};

/**
 * The customer's decision on a confirm link (docs/agent-api.md, "Customer confirmation"): an approval by the end user
 * (`confirmed`) or their rejection (`declined`), the hash the link was issued for and the one the page showed
 * (`proposalHash`), when, and the browser (family and OS only).
 */
export type PackConfirmation = {
  id: string;
  decision: string;
  endUserSub: string;
  issuedForHash: string;
  proposalHash: string;
  decidedAt: string;
  userAgent: string | null;
};

export type EvidencePack = {
  format: typeof EVIDENCE_PACK_FORMAT | "audit-evidence-pack/v2";
  generatedAt: string;
  tenant: { id: string; slug: string };
  relyingParty: { rpID: string; origin: string };
  proposal: { id: string; traceId: string; status: string; hash: string; canonicalJson: string; createdAt: string };
  approvals: PackApproval[];
  /** The customer's decisions on their confirm links; absent when there are none. */
  customerConfirmations?: PackConfirmation[];
  execution: (ExecutionFacts & { id: string }) | null;
  /**
   * A follow-up step (a cancellation's refund, docs/action-kinds.md "Steps") has no approval of its own: the proposal
   * whose approval authorised it — its canonical JSON and hash, and its approvals. Absent on every other pack.
   */
  authority?: { proposal: { id: string; hash: string; canonicalJson: string }; approvals: PackApproval[] };
  refunds: { id: string; status: string; providerRefundId: string | null; amountMinor: number; currency: string }[];
  /** The proposal's events (its trace and every event naming the proposal), each with its inclusion proof. */
  events: PackEvent[];
  /** The tenant's signed checkpoint the proofs lead to. */
  checkpoint: SignedCheckpoint | null;
  /**
   * v3: the same checkpoint as a C2SP signed note (origin, size, root; the log's signature lines) with the
   * witnesses' cosignature/v1 lines stored for it; null when it has none (signed before the witnessed log).
   */
  cosignedCheckpoint?: string | null;
  /** sha256 hex of the canonical JSON of the pack without this member. */
  packDigest: string;
};

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex"); // a string is hashed as UTF-8

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

const contentOf = (e: PackEvent) => ({ ...e, occurredAt: new Date(e.occurredAt) });

/** `skipped`: not checked (e.g. no policy file given) — says so without failing; `info`: what an ok check found. */
export type EvidenceCheck = { name: string; ok: boolean; detail?: string; skipped?: true; info?: string };
export type EvidenceVerdict = { ok: boolean; checks: EvidenceCheck[] };

/**
 * Verifies a pack file's text offline: canonical form, digest, proposal hash, the checkpoint's signature
 * with `publicKey` (the log's key, obtained independently — /api/audit/public-key, docs/audit.md), each
 * event's leaf hash and inclusion proof, approvals and passkey signatures, execution links.
 */
export type EvidenceVerifyOptions = {
  /** The log's current key (the trust anchor, obtained independently of the pack). */
  publicKey?: KeyObject | string | null;
  /** Keys retired by a rotation, with their validity (GET /api/audit/public-keys): each verifies what it signed in its period. */
  retiredKeys?: readonly RetiredKey[];
  /** The auditor's pinned witness policy (lib/domain/witness-policy.ts); without it the quorum is not checked. */
  policy?: WitnessPolicy | null;
};

export async function verifyEvidencePack(text: string, opts: EvidenceVerifyOptions = {}): Promise<EvidenceVerdict> {
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
  check(
    "canonical form",
    canonicalize(pack) === text,
    "the file must be exactly the RFC 8785 canonical JSON of its content",
  );
  if (!check("format", READABLE_FORMATS.includes(pack?.format), String(pack?.format))) return { ok: false, checks };
  try {
    check("pack digest", packDigest(pack) === pack.packDigest);
    const p = pack.proposal;
    check("proposal hash", sha256(p.canonicalJson) === p.hash, "sha256(canonicalJson) must equal proposal.hash");
    let canonical: {
      id?: string;
      tenantId?: string;
      kind?: string;
      requiredApprovals?: unknown;
      confirmation?: unknown;
      amount?: { minor?: unknown; currency?: unknown };
    } = {};
    try {
      canonical = JSON.parse(p.canonicalJson) as typeof canonical;
    } catch {
      // reported below
    }
    check(
      "proposal identity",
      canonical.id === p.id && canonical.tenantId === pack.tenant.id,
      "canonicalJson names this proposal and tenant",
    );

    const cp = pack.checkpoint;
    let key: KeyObject | null = null;
    try {
      key = typeof opts.publicKey === "string" ? publicKeyFrom(opts.publicKey) : (opts.publicKey ?? null);
    } catch (error) {
      check("public key", false, error instanceof Error ? error.message : String(error));
    }
    const retiredKeys = opts.retiredKeys ?? [];
    if (!key && retiredKeys.length === 0)
      check("checkpoint signature", false, "no public key given: pass the log's Ed25519 public key (--public-key)");
    else if (!cp) check("checkpoint signature", false, "the pack carries no checkpoint");
    else {
      const signer = checkpointSigner(cp, key, retiredKeys);
      if (!signer.ok) check("checkpoint signature", false, `the checkpoint ${signer.problem}`);
      else
        checks.push({
          name: "checkpoint signature",
          ok: true,
          detail: "the checkpoint must be signed by the given audit key",
          ...(signer.retired ? { info: `signed by ${retiredKeyLabel(signer.retired)}` } : {}),
        });
    }
    check("checkpoint names the tenant", cp?.logId === pack.tenant.id);
    if (pack.format === EVIDENCE_PACK_FORMAT) checkCosigned(pack, key, retiredKeys, opts.policy ?? null, check, checks);
    for (const e of pack.events) {
      const name = `event ${e.id}`;
      if (
        !check(
          `${name} hash`,
          e.tenantId === pack.tenant.id && auditLeafHash(contentOf(e)) === e.hash,
          "its content must hash to its leaf hash",
        )
      )
        continue;
      if (e.leafIndex === null || e.inclusionProof === null || !cp) {
        check(`${name} in log`, false, "not yet integrated into the log when the pack was built: build the pack again");
        continue;
      }
      check(
        `${name} in log`,
        verifyInclusion(e.leafIndex, cp.treeSize, e.hash, e.inclusionProof, cp.rootHash),
        `inclusion proof of leaf ${e.leafIndex} against the checkpoint of size ${cp.treeSize}`,
      );
    }
    check("events", pack.events.length > 0);
    const ownEvents = pack.events.filter((e) => e.proposalId === p.id);
    check(
      "events name the proposal hash",
      ownEvents.length > 0 && ownEvents.every((e) => e.proposalHash === null || e.proposalHash === p.hash),
    );

    for (const a of pack.approvals) {
      check(`approval ${a.id} hash`, a.proposalHash === p.hash);
      const event = ownEvents.find(
        (e) => e.action === "proposal:approve" && e.outcome === "ok" && e.actorId === a.approverId,
      );
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
    // The customer's decisions: each bound to this proposal's hash (issued for it and shown) and audited as theirs.
    const confirmations = pack.customerConfirmations ?? [];
    for (const c of confirmations) {
      check(
        `customer confirmation ${c.id} hash`,
        c.proposalHash === p.hash && c.issuedForHash === p.hash,
        "the hash the customer was shown, and the link's, must equal proposal.hash",
      );
      const action = c.decision === "confirmed" ? "proposal:customer_confirmed" : "proposal:customer_declined";
      check(
        `customer confirmation ${c.id} audited`,
        ownEvents.some((e) => e.action === action && e.outcome === "ok" && e.actorId === c.endUserSub),
        `an ok ${action} event by the end user`,
      );
    }
    const ex = pack.execution;
    if (ex) {
      // The key is the hashed kind's (`<kind>-<proposal id>`); hashes before kinds (v1–v3) are refunds'.
      check(
        "execution idempotency key",
        ex.idempotencyKey ===
          actionIdempotencyKey(typeof canonical.kind === "string" ? canonical.kind : "refund", p.id),
      );
      if (ex.providerRefundId)
        check(
          "provider refund linked",
          pack.refunds.some((r) => r.providerRefundId === ex.providerRefundId),
        );
      check(
        "execution audited",
        ownEvents.some((e) => e.action.startsWith("execution:")),
      );
      // An effect needs its authority: the proposal's own approvals (as many as it required), or — a follow-up step —
      // those of the proposal that authorised it.
      if (pack.authority) checkAuthority(pack, canonical, check);
      else {
        // Who had to confirm is hashed (v6 / v7): the customer alone, or the reviewers (and the customer with "both").
        const who = typeof canonical.confirmation === "string" ? canonical.confirmation : "reviewers";
        const required =
          who === "customer" ? 0 : typeof canonical.requiredApprovals === "number" ? canonical.requiredApprovals : 1;
        check(
          "approvals for the execution",
          pack.approvals.length >= required,
          `an executed proposal holds at least ${required} approval(s) of its own, or its authority's`,
        );
        if (who === "customer" || who === "both")
          check(
            "customer confirmation for the execution",
            confirmations.some((c) => c.decision === "confirmed" && c.proposalHash === p.hash),
            "the hashed policy needs the customer's confirmation of this hash",
          );
      }
    }
  } catch (error) {
    check("structure", false, error instanceof Error ? error.message : String(error));
  }
  return { ok: checks.every((c) => c.ok), checks };
}

/**
 * A follow-up's authority (docs/action-kinds.md, "Steps"): the authorising proposal's canonical JSON hashes to its
 * hash and names the pack's tenant; it holds at least its required approvals, each bound to that hash and audited
 * (an ok proposal:approve event by the approver, naming that proposal, in the pack's events — the two steps share
 * one trace); and the follow-up moves exactly the money it approved (its `params.money` = the follow-up's amount).
 */
function checkAuthority(
  pack: EvidencePack,
  canonical: { amount?: { minor?: unknown; currency?: unknown } },
  check: (name: string, ok: boolean, detail?: string) => boolean,
): void {
  const a = pack.authority!;
  check("authority hash", sha256(a.proposal.canonicalJson) === a.proposal.hash);
  let parent: {
    id?: string;
    tenantId?: string;
    requiredApprovals?: unknown;
    params?: { money?: { minor?: unknown; currency?: unknown } };
  } = {};
  try {
    parent = JSON.parse(a.proposal.canonicalJson) as typeof parent;
  } catch {
    // reported by the identity check
  }
  check("authority identity", parent.id === a.proposal.id && parent.tenantId === pack.tenant.id);
  const required = typeof parent.requiredApprovals === "number" ? parent.requiredApprovals : 1;
  check(
    "authority approvals",
    a.approvals.length >= required && a.approvals.every((x) => x.proposalHash === a.proposal.hash),
    `at least ${required} approval(s) bound to the authorising proposal's hash`,
  );
  for (const x of a.approvals)
    check(
      `authority approval ${x.id} audited`,
      pack.events.some(
        (e) =>
          e.proposalId === a.proposal.id &&
          e.action === "proposal:approve" &&
          e.outcome === "ok" &&
          e.actorId === x.approverId,
      ),
    );
  const money = parent.params?.money;
  check(
    "follow-up within what was approved",
    money !== undefined &&
      canonical.amount !== undefined &&
      money.minor === canonical.amount.minor &&
      money.currency === canonical.amount.currency,
    "the authorising proposal's params.money equals the follow-up's amount",
  );
}

/**
 * The v3 pack's C2SP checkpoint: it is the pack's checkpoint (origin "<host>/audit/<tenant>", same size and
 * root), signed by the log key (current, or retired within its validity at the checkpoint's issue time), and —
 * with a pinned policy — cosigned by a quorum of the policy's witnesses with no unknown or forged line.
 */
function checkCosigned(
  pack: EvidencePack,
  key: KeyObject | null,
  retiredKeys: readonly RetiredKey[],
  policy: WitnessPolicy | null,
  check: (name: string, ok: boolean, detail?: string) => boolean,
  checks: EvidenceCheck[],
): void {
  const note = pack.cosignedCheckpoint ?? null;
  const cp = pack.checkpoint;
  if (note === null || !cp) {
    check("cosigned checkpoint", false, "the pack carries no C2SP checkpoint for its checkpoint");
    return;
  }
  let body;
  try {
    body = parseCheckpointText(parseNote(note).text);
  } catch (error) {
    check("cosigned checkpoint", false, error instanceof Error ? error.message : String(error));
    return;
  }
  const slash = body.origin.lastIndexOf("/");
  const keyName = body.origin.slice(0, slash);
  const same =
    slash > 0 &&
    body.origin.slice(slash + 1) === pack.tenant.id &&
    body.treeSize === cp.treeSize &&
    body.rootHash === cp.rootHash;
  if (
    !check("cosigned checkpoint", same, "its origin, size and root must be those of the pack's checkpoint and tenant")
  )
    return;
  const at = new Date(cp.issuedAt).getTime();
  const logKeys = [
    ...(key ? [key] : []),
    ...retiredKeys
      .filter((r) => at >= new Date(r.validFrom).getTime() && at <= new Date(r.validUntil).getTime())
      .map((r) => r.key),
  ];
  let signed: boolean;
  try {
    signed = logKeys.some((k) => verifiedBy(note, parseVkey(vkeyOf(keyName, SIG_ED25519, k))).length > 0);
  } catch (error) {
    check("cosigned checkpoint log signature", false, error instanceof Error ? error.message : String(error));
    return;
  }
  check(
    "cosigned checkpoint log signature",
    signed,
    "a signature line of the log key (valid when the checkpoint was issued)",
  );
  if (!policy) {
    checks.push({
      name: "witness quorum",
      ok: true,
      skipped: true,
      detail: "not checked: no pinned witness policy given (--policy FILE)",
    });
    return;
  }
  const q = checkQuorum(note, keyName, policy);
  if (!q.ok) check("witness quorum", false, q.problem);
  else
    checks.push({
      name: "witness quorum",
      ok: true,
      info: `cosigned by ${q.cosigners.join(", ") || "no witness"} (quorum ${policy.quorum})`,
    });
}
