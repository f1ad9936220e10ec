import { generateKeyPairSync, sign } from "node:crypto";
import { describe, expect, it } from "vitest";
import { canonicalProposalJson, computeProposalHash } from "./proposal-hash";
import { auditLeafHash, checkpointNote, keyIdOf, rawPublicKey, type SignedCheckpoint } from "./audit-log";
import { inclusionProof, leafHash, merkleRoot, type Hex } from "./merkle";
import {
  executionFacts,
  serializeEvidencePack,
  verifyEvidencePack,
  type EvidencePack,
  type PackEvent,
} from "./evidence-pack";
import { packProposal, packProposalHash, packTenantId } from "../../tests/support/evidence-pack-fixture";

/** These packs are v2 (no cosigned checkpoint): what older packs are, and they still verify. v3: evidence-pack-cosigned.test.ts. */
const V2 = "audit-evidence-pack/v2" as const;

const tenantId = packTenantId;
const proposal = packProposal;
const hash = packProposalHash;
const keys = generateKeyPairSync("ed25519");
const otherKeys = generateKeyPairSync("ed25519");

const signed = (cp: Omit<SignedCheckpoint, "keyId" | "signature">, k = keys): SignedCheckpoint => ({
  ...cp,
  keyId: keyIdOf(k.publicKey),
  signature: sign(null, Buffer.from(checkpointNote(cp)), k.privateKey).toString("base64"),
});

/** A log of 13 leaves: unrelated events around the proposal's four (leaves 5..8). */
function logAndEvents() {
  const specs = [
    { action: "tool:prepare_refund", outcome: "approval_required", actorType: "agent", actorId: "key" },
    { action: "tool:lookup_order", outcome: "ok", actorType: "agent", actorId: "key" },
    { action: "proposal:approve", outcome: "ok", actorType: "staff", actorId: "rev" },
    { action: "execution:send", outcome: "ok", actorType: "system", actorId: "worker" },
  ];
  const events = specs.map((s, i) => {
    const content = {
      id: `e${i}`,
      tenantId,
      occurredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
      traceId: "tr",
      actorType: s.actorType,
      actorId: s.actorId,
      authMethod: null,
      action: s.action,
      outcome: s.outcome,
      proposalId: i === 1 ? null : proposal.id,
      proposalHash: i === 1 ? null : hash,
      model: null,
      promptVersion: null,
      channel: null,
      endUser: null,
      data: { n: i },
      fingerprints: [],
    };
    return { content, hash: auditLeafHash(content), leafIndex: 5 + i };
  });
  const leaves: Hex[] = Array.from({ length: 13 }, (_, i) => leafHash(`other-${i}`));
  for (const e of events) leaves[e.leafIndex] = e.hash;
  return { events, leaves };
}

function pack(): Omit<EvidencePack, "packDigest"> {
  const { events, leaves } = logAndEvents();
  const get = (level: number, index: number) => merkleRoot(leaves.slice(index * 2 ** level, (index + 1) * 2 ** level));
  const checkpoint = signed({
    logId: tenantId,
    treeSize: leaves.length,
    rootHash: merkleRoot(leaves),
    issuedAt: "2026-01-01T00:01:00.000Z",
  });
  const packEvents: PackEvent[] = events.map((e) => ({
    ...e.content,
    occurredAt: e.content.occurredAt.toISOString(),
    hash: e.hash,
    leafIndex: e.leafIndex,
    inclusionProof: inclusionProof(e.leafIndex, leaves.length, get),
  }));
  return {
    format: V2,
    generatedAt: "2026-01-02T00:00:00.000Z",
    tenant: { id: tenantId, slug: "t" },
    relyingParty: { rpID: "localhost", origin: "http://localhost:3000" },
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
    events: packEvents,
    checkpoint,
  };
}

const publicKey = rawPublicKey(keys.publicKey).toString("base64");
const failed = (v: { checks: { name: string; ok: boolean }[] }) => v.checks.filter((c) => !c.ok).map((c) => c.name);

describe("evidence pack", () => {
  it("verifies offline with only the log's public key (base64 or PEM)", async () => {
    const text = serializeEvidencePack(pack());
    const v = await verifyEvidencePack(text, { publicKey });
    expect(failed(v)).toEqual([]);
    expect(v.ok).toBe(true);
    expect(
      (await verifyEvidencePack(text, { publicKey: String(keys.publicKey.export({ format: "pem", type: "spki" })) }))
        .ok,
    ).toBe(true);
  });
  it("fails without a key, and with another key", async () => {
    const text = serializeEvidencePack(pack());
    expect(failed(await verifyEvidencePack(text))).toEqual(["checkpoint signature"]);
    expect(failed(await verifyEvidencePack(text, { publicKey: otherKeys.publicKey }))).toEqual([
      "checkpoint signature",
    ]);
    expect(failed(await verifyEvidencePack(text, { publicKey: "not a key" }))).toEqual([
      "public key",
      "checkpoint signature",
    ]);
  });
  it("any changed byte fails", async () => {
    const text = serializeEvidencePack(pack());
    for (const at of [5, Math.floor(text.length / 3), Math.floor(text.length / 2), text.length - 5]) {
      const c = text.charCodeAt(at);
      const changed =
        text.slice(0, at) +
        String.fromCharCode(c === 0x61 ? 0x62 : c === 0x22 ? 0x27 : c + 1 === 0x22 ? c + 2 : c + 1) +
        text.slice(at + 1);
      expect((await verifyEvidencePack(changed, { publicKey })).ok, `byte ${at}`).toBe(false);
    }
  });
  it("an event rewritten with a recomputed leaf hash and digest fails its inclusion proof", async () => {
    const p = pack();
    const e = p.events[2]!;
    const rewritten = { ...e, data: { n: 99 } };
    rewritten.hash = auditLeafHash({ ...rewritten, occurredAt: new Date(rewritten.occurredAt) });
    p.events[2] = rewritten;
    expect(failed(await verifyEvidencePack(serializeEvidencePack(p), { publicKey }))).toEqual([`event ${e.id} in log`]);
  });
  it("a re-signed checkpoint over a forged tree fails without the log's key", async () => {
    const p = pack();
    p.checkpoint = signed({ ...p.checkpoint!, rootHash: merkleRoot([leafHash("forged")]) }, otherKeys);
    expect(failed(await verifyEvidencePack(serializeEvidencePack(p), { publicKey }))).toContain("checkpoint signature");
  });
  it("a consistent forgery of the amount still fails: the signed log holds the original hash", async () => {
    const p = pack();
    const forged = { ...proposal, amount: { minor: 99_999, currency: "EUR" } };
    p.proposal = { ...p.proposal, canonicalJson: canonicalProposalJson(forged), hash: computeProposalHash(forged) };
    p.approvals = p.approvals.map((a) => ({ ...a, proposalHash: p.proposal.hash }));
    expect((await verifyEvidencePack(serializeEvidencePack(p), { publicKey })).ok).toBe(false);
  });
  it("an event not yet integrated (no proof) fails, naming it", async () => {
    const p = pack();
    p.events[3] = { ...p.events[3]!, leafIndex: null, inclusionProof: null };
    expect(failed(await verifyEvidencePack(serializeEvidencePack(p), { publicKey }))).toEqual([
      `event ${p.events[3].id} in log`,
    ]);
  });
  it("a missing approval event or execution link fails", async () => {
    const p = pack();
    p.refunds = [];
    expect((await verifyEvidencePack(serializeEvidencePack(p), { publicKey })).ok).toBe(false);
  });
});

describe("executionFacts", () => {
  const execution = {
    status: "succeeded",
    idempotencyKey: "refund:p1",
    providerRefundId: "re_1",
    attempts: 2,
    reconciliations: 1,
  };
  it("keeps exactly what shows how repetition was avoided, with the settlement time as ISO text", () => {
    const facts = executionFacts({
      ...execution,
      settledAt: new Date("2026-03-01T10:00:00.000Z"),
      id: "e1",
      secret: "x",
    } as never);
    expect(facts).toEqual({ ...execution, settledAt: "2026-03-01T10:00:00.000Z" });
  });
  it("an unsettled execution has settledAt null", () => {
    expect(executionFacts({ ...execution, settledAt: null }).settledAt).toBeNull();
  });
});
