// Each check of the offline evidence-pack verifier, alone: a pack forged consistently (hashes, proofs, digest
// and checkpoint recomputed and signed with the log's key) except for the one property a check guards must
// fail exactly that check. Found unchecked by mutation testing (npm run test:mutation).
import { createHash, generateKeyPairSync, sign } from "node:crypto";
import canonicalize from "canonicalize";
import { describe, expect, it } from "vitest";
import { createSoftAuthenticator } from "@/tests/support/soft-authenticator";
import { canonicalProposalJson, computeProposalHash } from "./proposal-hash";
import { auditLeafHash, checkpointNote, keyIdOf, rawPublicKey, type SignedCheckpoint } from "./audit-log";
import { inclusionProof, leafHash, merkleRoot, type Hex } from "./merkle";
import { deriveApprovalChallenge } from "./passkey-challenge";
import { APPROVAL_CHALLENGE_DERIVATION, type PasskeyApprovalEvidence } from "./verify-passkey-approval";
import {
  packDigest,
  serializeEvidencePack,
  verifyEvidencePack,
  type EvidenceCheck,
  type EvidencePack,
  type PackEvent,
} from "./evidence-pack";
import { packProposal, packProposalHash, packTenantId } from "../../tests/support/evidence-pack-fixture";

/** These packs are v2 (no cosigned checkpoint): what older packs are, and they still verify. v3: evidence-pack-cosigned.test.ts. */
const V2 = "audit-evidence-pack/v2" as const;

type Draft = Omit<EvidencePack, "packDigest">;

const tenantId = packTenantId;
const otherTenant = "00000000-0000-4000-8000-000000000002";
const rp = { rpID: "localhost", origin: "http://localhost:3000" };
const proposal = packProposal;
const hash = packProposalHash;
const keys = generateKeyPairSync("ed25519");
const publicKey = rawPublicKey(keys.publicKey).toString("base64");
const sha256 = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");

const IN_LOG_LATER = "not yet integrated into the log when the pack was built: build the pack again";

function event(i: number, action: string, outcome: string, actorId: string, own = true): PackEvent {
  return {
    id: `e${i}`,
    tenantId,
    occurredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    traceId: "tr",
    actorType: "staff",
    actorId,
    authMethod: null,
    action,
    outcome,
    proposalId: own ? proposal.id : null,
    proposalHash: own ? hash : null,
    model: null,
    promptVersion: null,
    channel: null,
    endUser: null,
    data: { n: i },
    fingerprints: [],
    hash: "",
    leafIndex: null,
    inclusionProof: null,
  };
}

/** Recomputes every event's leaf hash (unless kept), places the events at leaves 5.. of a padded log,
 *  and signs a checkpoint of that log with the log's key: the pack is then consistent. */
function seal(p: Draft, opts: { keepHashes?: boolean; logId?: string } = {}): Draft {
  const size = 5 + p.events.length + 4;
  const leaves: Hex[] = Array.from({ length: size }, (_, i) => leafHash(`other-${i}`));
  const events = p.events.map((e, i) => {
    const h = opts.keepHashes ? e.hash : auditLeafHash({ ...e, occurredAt: new Date(e.occurredAt) });
    leaves[5 + i] = h;
    return { ...e, hash: h, leafIndex: 5 + i };
  });
  const get = (level: number, index: number) => merkleRoot(leaves.slice(index * 2 ** level, (index + 1) * 2 ** level));
  const cp = {
    logId: opts.logId ?? tenantId,
    treeSize: size,
    rootHash: merkleRoot(leaves),
    issuedAt: "2026-01-01T00:01:00.000Z",
  };
  const checkpoint: SignedCheckpoint = {
    ...cp,
    keyId: keyIdOf(keys.publicKey),
    signature: sign(null, Buffer.from(checkpointNote(cp)), keys.privateKey).toString("base64"),
  };
  return {
    ...p,
    events: events.map((e) => ({ ...e, inclusionProof: inclusionProof(e.leafIndex, size, get) })),
    checkpoint,
  };
}

function draft(): Draft {
  return seal({
    format: V2,
    generatedAt: "2026-01-02T00:00:00.000Z",
    tenant: { id: tenantId, slug: "t" },
    relyingParty: rp,
    proposal: {
      id: proposal.id,
      traceId: "tr",
      status: "succeeded",
      hash,
      canonicalJson: canonicalProposalJson(proposal),
      createdAt: "2026-01-01T00:00:00.000Z",
    },
    approvals: [
      {
        id: "ap1",
        approverId: "rev",
        authMethod: "password",
        authTime: "2026-01-01T00:00:00.000Z",
        proposalHash: hash,
        createdAt: "2026-01-01T00:00:12.000Z",
        passkey: null,
      },
    ],
    execution: {
      id: "ex1",
      status: "succeeded",
      idempotencyKey: `refund-${proposal.id}`,
      providerRefundId: "re_1",
      attempts: 1,
      reconciliations: 0,
      settledAt: null,
    },
    refunds: [{ id: "r1", status: "succeeded", providerRefundId: "re_1", amountMinor: 1234, currency: "EUR" }],
    events: [
      event(0, "tool:prepare_refund", "approval_required", "key"),
      event(1, "tool:lookup_order", "ok", "key", false),
      event(2, "proposal:approve", "ok", "rev"),
      event(3, "execution:send", "ok", "worker"),
    ],
    checkpoint: null,
  });
}

const verify = (p: Draft, opts: Parameters<typeof verifyEvidencePack>[1] = { publicKey }) =>
  verifyEvidencePack(serializeEvidencePack(p), opts);
const failed = (v: { checks: EvidenceCheck[] }) => v.checks.filter((c) => !c.ok).map((c) => c.name);
const names = (v: { checks: EvidenceCheck[] }) => v.checks.map((c) => c.name);
const entry = (v: { checks: EvidenceCheck[] }, name: string) => v.checks.find((c) => c.name === name);

function passkeyEvidence(signedHash = hash) {
  const authenticator = createSoftAuthenticator(rp);
  const nonce = "AAECAwQFBgcICQoLDA0ODw";
  const challenge = deriveApprovalChallenge({ proposalId: proposal.id, proposalHash: signedHash, nonce });
  const response = authenticator.authenticate(challenge);
  const assertion: PasskeyApprovalEvidence = {
    version: "approval-v1",
    derivation: APPROVAL_CHALLENGE_DERIVATION,
    proposalId: proposal.id,
    proposalHash: hash,
    nonce,
    challenge,
    ...rp,
    credentialId: authenticator.credentialId,
    publicKey: authenticator.cosePublicKey,
    counter: 1,
    userVerified: true,
    verifiedAt: "2026-01-01T00:00:11.000Z",
    response: { ...response, clientExtensionResults: {} },
  };
  return { credentialId: authenticator.credentialId, publicKey: authenticator.cosePublicKey, assertion };
}

describe("evidence pack: the verdict of a sound pack", () => {
  it("lists every check, in order, with its detail", async () => {
    const v = await verify(draft());
    const eventChecks = [0, 1, 2, 3].flatMap((i) => [
      { name: `event e${i} hash`, ok: true, detail: "its content must hash to its leaf hash" },
      {
        name: `event e${i} in log`,
        ok: true,
        detail: `inclusion proof of leaf ${5 + i} against the checkpoint of size 13`,
      },
    ]);
    expect(v).toStrictEqual({
      ok: true,
      checks: [
        {
          name: "canonical form",
          ok: true,
          detail: "the file must be exactly the RFC 8785 canonical JSON of its content",
        },
        { name: "format", ok: true, detail: V2 },
        { name: "pack digest", ok: true },
        { name: "proposal hash", ok: true, detail: "sha256(canonicalJson) must equal proposal.hash" },
        { name: "proposal identity", ok: true, detail: "canonicalJson names this proposal and tenant" },
        { name: "checkpoint signature", ok: true, detail: "the checkpoint must be signed by the given audit key" },
        { name: "checkpoint names the tenant", ok: true },
        ...eventChecks,
        { name: "events", ok: true },
        { name: "events name the proposal hash", ok: true },
        { name: "approval ap1 hash", ok: true },
        { name: "approval ap1 audited", ok: true, detail: "an ok proposal:approve event by the approver" },
        { name: "execution idempotency key", ok: true },
        { name: "provider refund linked", ok: true },
        { name: "execution audited", ok: true },
        {
          name: "approvals for the execution",
          ok: true,
          detail: "an executed proposal holds at least 1 approval(s) of its own, or its authority's",
        },
      ],
    });
  });

  it("accepts the key as a KeyObject too", async () => {
    expect(failed(await verify(draft(), { publicKey: keys.publicKey }))).toEqual([]);
  });

  it("the digest is sha256 of the canonical JSON without the digest member", () => {
    const p = draft();
    const text = serializeEvidencePack(p);
    const expected = sha256(canonicalize(p)!);
    expect(packDigest(p)).toBe(expected);
    expect((JSON.parse(text) as EvidencePack).packDigest).toBe(expected);
    expect(packDigest({ ...p, packDigest: "ignored" })).toBe(expected);
    const uncanonical = { ...p, toJSON: () => undefined } as unknown as Draft;
    expect(() => packDigest(uncanonical)).toThrow("pack could not be canonicalized");
  });
});

describe("evidence pack: the file itself", () => {
  it("text that is not JSON fails alone", async () => {
    expect(await verifyEvidencePack("{not json")).toStrictEqual({
      ok: false,
      checks: [{ name: "json", ok: false, detail: expect.stringContaining("JSON") as string }],
    });
  });
  it("JSON that is not a pack of this format stops after the format check", async () => {
    expect(await verifyEvidencePack("null", { publicKey })).toStrictEqual({
      ok: false,
      checks: [
        {
          name: "canonical form",
          ok: true,
          detail: "the file must be exactly the RFC 8785 canonical JSON of its content",
        },
        { name: "format", ok: false, detail: "undefined" },
      ],
    });
    const v = await verify({ ...draft(), format: "audit-evidence-pack/v1" as typeof V2 });
    expect(v.ok).toBe(false);
    expect(v.checks).toStrictEqual([
      {
        name: "canonical form",
        ok: true,
        detail: "the file must be exactly the RFC 8785 canonical JSON of its content",
      },
      { name: "format", ok: false, detail: "audit-evidence-pack/v1" },
    ]);
  });
  it("the same content, not in canonical form, fails only the canonical-form check", async () => {
    const pretty = JSON.stringify(JSON.parse(serializeEvidencePack(draft())), null, 1);
    const v = await verifyEvidencePack(pretty, { publicKey });
    expect(failed(v)).toEqual(["canonical form"]);
    expect(v.ok).toBe(false);
  });
  it("a wrong digest fails only the digest check", async () => {
    const p = draft();
    const text = canonicalize({ ...p, packDigest: "0".repeat(64) })!;
    expect(failed(await verifyEvidencePack(text, { publicKey }))).toEqual(["pack digest"]);
  });
  it("a pack whose structure is broken fails with a structure check, never a throw", async () => {
    const p = { ...draft(), events: null } as unknown as Draft;
    const v = await verify(p);
    expect(v.ok).toBe(false);
    expect(failed(v)).toEqual(["structure"]);
    expect(entry(v, "structure")?.detail).toMatch(/iterable/);
  });
});

describe("evidence pack: the proposal", () => {
  it("a canonicalJson that does not hash to proposal.hash", async () => {
    const p = draft();
    p.proposal = { ...p.proposal, canonicalJson: `${p.proposal.canonicalJson} ` };
    expect(failed(await verify(p))).toEqual(["proposal hash"]);
  });
  it("a consistent proposal of another id, or of another tenant, fails its identity", async () => {
    for (const forged of [
      { ...proposal, id: "33333333-3333-4333-8333-333333333333" },
      { ...proposal, tenantId: otherTenant },
    ]) {
      const p = draft();
      const forgedHash = computeProposalHash(forged);
      p.proposal = { ...p.proposal, canonicalJson: canonicalProposalJson(forged), hash: forgedHash };
      p.approvals = p.approvals.map((a) => ({ ...a, proposalHash: forgedHash }));
      p.events = p.events.map((e) => (e.proposalHash === null ? e : { ...e, proposalHash: forgedHash }));
      expect(failed(await verify(seal(p)))).toEqual(["proposal identity"]);
    }
  });
  it("a canonicalJson that is not JSON fails its identity (and its hash)", async () => {
    const p = draft();
    p.proposal = { ...p.proposal, canonicalJson: "not json" };
    expect(failed(await verify(p))).toEqual(["proposal hash", "proposal identity"]);
  });
});

describe("evidence pack: the checkpoint", () => {
  it("without a key, says how to pass one", async () => {
    const v = await verify(draft(), {});
    expect(failed(v)).toEqual(["checkpoint signature"]);
    expect(entry(v, "checkpoint signature")).toStrictEqual({
      name: "checkpoint signature",
      ok: false,
      detail: "no public key given: pass the log's Ed25519 public key (--public-key)",
    });
    const bad = await verify(draft(), { publicKey: "not a key" });
    expect(failed(bad)).toEqual(["public key", "checkpoint signature"]);
    expect(entry(bad, "public key")?.detail).toBe("an Ed25519 public key is 32 bytes (base64) or PEM");
  });
  it("a pack without a checkpoint fails its signature, its log and every inclusion", async () => {
    const v = await verify({ ...draft(), checkpoint: null });
    expect(failed(v)).toEqual([
      "checkpoint signature",
      "checkpoint names the tenant",
      "event e0 in log",
      "event e1 in log",
      "event e2 in log",
      "event e3 in log",
    ]);
    expect(entry(v, "event e2 in log")?.detail).toBe(IN_LOG_LATER);
  });
  it("a checkpoint of another log, validly signed, fails only the tenant check", async () => {
    expect(failed(await verify(seal(draft(), { logId: otherTenant })))).toEqual(["checkpoint names the tenant"]);
  });
});

describe("evidence pack: events", () => {
  it("an event of another tenant, even with its own leaf hash, fails its hash and is not looked up", async () => {
    const p = draft();
    p.events[1] = { ...p.events[1]!, tenantId: otherTenant };
    const v = await verify(seal(p));
    expect(failed(v)).toEqual(["event e1 hash"]);
    expect(names(v)).not.toContain("event e1 in log");
  });
  it("an edited event keeping its original (logged) hash fails its hash and is not looked up", async () => {
    const p = draft();
    p.events[1] = { ...p.events[1]!, data: { n: 42 } };
    const v = await verify(p);
    expect(failed(v)).toEqual(["event e1 hash"]);
    expect(names(v)).not.toContain("event e1 in log");
  });
  it("an event without a leaf index, or without a proof, is reported as not yet integrated", async () => {
    for (const change of [{ leafIndex: null }, { inclusionProof: null }]) {
      const p = draft();
      p.events[2] = { ...p.events[2]!, ...change };
      const v = await verify(p);
      expect(failed(v)).toEqual(["event e2 in log"]);
      expect(entry(v, "event e2 in log")).toStrictEqual({ name: "event e2 in log", ok: false, detail: IN_LOG_LATER });
    }
  });
  it("a pack without events fails", async () => {
    const p = seal({ ...draft(), events: [] });
    expect(failed(await verify(p))).toEqual([
      "events",
      "events name the proposal hash",
      "approval ap1 audited",
      "execution audited",
    ]);
  });
  it("events of another proposal may carry another hash; the proposal's own must carry its hash or none", async () => {
    const other = {
      ...event(4, "tool:prepare_refund", "ok", "key"),
      proposalId: "44444444-4444-4444-8444-444444444444",
      proposalHash: "ab".repeat(32),
    };
    const noHash = { ...event(5, "proposal:view", "ok", "rev"), proposalHash: null };
    const p = draft();
    p.events = [...p.events, other, noHash];
    expect(failed(await verify(seal(p)))).toEqual([]);

    const wrong = draft();
    wrong.events = [...wrong.events, { ...event(4, "proposal:view", "ok", "rev"), proposalHash: "ab".repeat(32) }];
    expect(failed(await verify(seal(wrong)))).toEqual(["events name the proposal hash"]);
  });
  it("events that do not name the proposal fail", async () => {
    const p = draft();
    p.events = p.events.map((e) => ({ ...e, proposalId: null, proposalHash: null }));
    expect(failed(await verify(seal(p)))).toEqual([
      "events name the proposal hash",
      "approval ap1 audited",
      "execution audited",
    ]);
  });
});

describe("evidence pack: approvals", () => {
  it("an approval of another hash fails", async () => {
    const p = draft();
    p.approvals = [{ ...p.approvals[0]!, proposalHash: "ab".repeat(32) }];
    expect(failed(await verify(p))).toEqual(["approval ap1 hash"]);
  });
  it("the approval must be audited as an ok proposal:approve by the approver", async () => {
    for (const change of [
      { action: "proposal:reject" },
      { outcome: "permission_denied" },
      { actorId: "someone-else" },
    ]) {
      const p = draft();
      p.events[2] = { ...p.events[2]!, ...change };
      expect(failed(await verify(seal(p))), JSON.stringify(change)).toEqual(["approval ap1 audited"]);
    }
  });
  it("a passkey approval's signature is verified offline", async () => {
    const p = draft();
    const passkey = passkeyEvidence();
    p.approvals = [...p.approvals, { ...p.approvals[0]!, id: "ap2", authMethod: "passkey", passkey }];
    const v = await verify(p);
    expect(failed(v)).toEqual([]);
    expect(v.checks.slice(-6, -4)).toStrictEqual([
      { name: "approval ap2 audited", ok: true, detail: "an ok proposal:approve event by the approver" },
      { name: "approval ap2 passkey signature", ok: true },
    ]);
  });
  it("a passkey signature over another hash fails with the verifier's reason", async () => {
    const p = draft();
    p.approvals = [{ ...p.approvals[0]!, authMethod: "passkey", passkey: passkeyEvidence("cd".repeat(32)) }];
    const v = await verify(p);
    expect(failed(v)).toEqual(["approval ap1 passkey signature"]);
    expect(entry(v, "approval ap1 passkey signature")).toStrictEqual({
      name: "approval ap1 passkey signature",
      ok: false,
      detail: "challenge_mismatch",
    });
  });
  it("a passkey approval without its assertion fails; a password approval's passkey is not judged", async () => {
    const p = draft();
    p.approvals = [{ ...p.approvals[0]!, authMethod: "passkey", passkey: null }];
    const v = await verify(p);
    expect(failed(v)).toEqual(["approval ap1 passkey"]);
    expect(entry(v, "approval ap1 passkey")).toStrictEqual({
      name: "approval ap1 passkey",
      ok: false,
      detail: "passkey approval without its assertion",
    });

    const q = draft();
    q.approvals = [{ ...q.approvals[0]!, passkey: passkeyEvidence("cd".repeat(32)) }];
    const w = await verify(q);
    expect(failed(w)).toEqual([]);
    expect(names(w).filter((n) => n.includes("passkey"))).toEqual([]);
  });
});

describe("evidence pack: execution", () => {
  it("no execution, no execution checks", async () => {
    const v = await verify({ ...draft(), execution: null, refunds: [] });
    expect(failed(v)).toEqual([]);
    expect(names(v).filter((n) => n.includes("execution") || n.includes("refund"))).toEqual([]);
  });
  it("the idempotency key must be the proposal's", async () => {
    const p = draft();
    p.execution = { ...p.execution!, idempotencyKey: "refund-33333333-3333-4333-8333-333333333333" };
    expect(failed(await verify(p))).toEqual(["execution idempotency key"]);
  });
  it("a provider refund id must be among the refunds; none is not checked", async () => {
    const p = draft();
    p.refunds = [{ ...p.refunds[0]!, providerRefundId: "re_other" }];
    expect(failed(await verify(p))).toEqual(["provider refund linked"]);
    const q = draft();
    q.execution = { ...q.execution!, providerRefundId: null };
    q.refunds = [];
    const v = await verify(q);
    expect(failed(v)).toEqual([]);
    expect(names(v)).not.toContain("provider refund linked");
  });
  it("the execution must be audited by an execution:* event of the proposal", async () => {
    for (const action of ["refund:execution:send", "proposal:approve"]) {
      const p = draft();
      p.events[3] = { ...p.events[3]!, action };
      expect(failed(await verify(seal(p))), action).toEqual(["execution audited"]);
    }
    const q = draft();
    q.events[3] = { ...q.events[3]!, proposalId: null, proposalHash: null };
    expect(failed(await verify(seal(q)))).toEqual(["execution audited"]);
  });
});
