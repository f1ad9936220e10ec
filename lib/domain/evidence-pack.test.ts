import { describe, expect, it } from "vitest";
import { canonicalProposalJson, computeProposalHash } from "./proposal-hash";
import { auditContentHash, auditLinkHash } from "./audit-chain";
import { EVIDENCE_PACK_FORMAT, serializeEvidencePack, verifyEvidencePack, type EvidencePack, type PackEvent } from "./evidence-pack";

const tenantId = "00000000-0000-4000-8000-000000000001";
const proposal = {
  id: "11111111-1111-4111-8111-111111111111", tenantId, orderId: "22222222-2222-4222-8222-222222222222", amount: { minor: 1234, currency: "EUR" },
  recipient: { kind: "card", ref: "pi_1", holder: "A" }, reason: "damaged_item", expiresAt: new Date("2026-01-01T00:30:00.000Z"),
};
const hash = computeProposalHash(proposal);

function events(): PackEvent[] {
  let prev: string | null = null;
  const out: PackEvent[] = [];
  const specs = [
    { action: "tool:prepare_refund", outcome: "approval_required", actorType: "agent", actorId: "key" },
    { action: "tool:lookup_order", outcome: "ok", actorType: "agent", actorId: "key", other: true },
    { action: "proposal:approve", outcome: "ok", actorType: "staff", actorId: "rev" },
    { action: "execution:send", outcome: "ok", actorType: "system", actorId: "worker" },
  ];
  specs.forEach((s, i) => {
    const seq = 10 + i;
    const content = {
      tenantId, occurredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)), traceId: s.other ? "other" : "tr", actorType: s.actorType, actorId: s.actorId, authMethod: null,
      action: s.action, outcome: s.outcome, proposalId: s.other ? null : proposal.id, proposalHash: s.other ? null : hash, model: null, promptVersion: null,
      channel: null, endUser: null, data: {}, fingerprints: [],
    };
    prev = seq === 10 ? "a".repeat(64) : prev;
    const h = auditLinkHash(prev, seq, auditContentHash(content));
    out.push({ ...content, occurredAt: content.occurredAt.toISOString(), id: `e${seq}`, seq, prevHash: prev, hash: h });
    prev = h;
  });
  return out;
}

function pack(): Omit<EvidencePack, "packDigest"> {
  const segment = events();
  return {
    format: EVIDENCE_PACK_FORMAT, generatedAt: "2026-01-02T00:00:00.000Z", tenant: { id: tenantId, slug: "t" }, relyingParty: { rpID: "localhost", origin: "http://localhost:3000" },
    proposal: { id: proposal.id, traceId: "tr", status: "succeeded", hash, canonicalJson: canonicalProposalJson(proposal), createdAt: "2026-01-01T00:00:00.000Z" },
    approvals: [{ id: "ap1", approverId: "rev", authMethod: "password", authTime: "2026-01-01T00:00:00.000Z", proposalHash: hash, createdAt: "2026-01-01T00:00:12.000Z", passkey: null }],
    execution: { id: "ex1", status: "succeeded", idempotencyKey: `refund-${proposal.id}`, providerRefundId: "re_1", attempts: 1, reconciliations: 0, settledAt: null },
    refunds: [{ id: "r1", status: "succeeded", providerRefundId: "re_1", amountMinor: 1234, currency: "EUR" }],
    events: segment.filter((e) => e.traceId === "tr"),
    chain: { tenantId, checkpoint: { lastSeq: 9, lastHash: "a".repeat(64) }, segment },
  };
}

describe("evidence pack", () => {
  it("verifies offline", async () => {
    const v = await verifyEvidencePack(serializeEvidencePack(pack()));
    expect(v.checks.filter((c) => !c.ok)).toEqual([]);
    expect(v.ok).toBe(true);
  });
  it("any changed byte fails", async () => {
    const text = serializeEvidencePack(pack());
    for (const at of [5, Math.floor(text.length / 3), Math.floor(text.length / 2), text.length - 5]) {
      const c = text.charCodeAt(at);
      const changed = text.slice(0, at) + String.fromCharCode(c === 0x61 ? 0x62 : c === 0x22 ? 0x27 : c + 1 === 0x22 ? c + 2 : c + 1) + text.slice(at + 1);
      expect((await verifyEvidencePack(changed)).ok, `byte ${at}`).toBe(false);
    }
  });
  it("a consistent forgery of the amount still fails: the chain holds the original hash", async () => {
    const p = pack();
    const forged = { ...proposal, amount: { minor: 99_999, currency: "EUR" } };
    p.proposal = { ...p.proposal, canonicalJson: canonicalProposalJson(forged), hash: computeProposalHash(forged) };
    p.approvals = p.approvals.map((a) => ({ ...a, proposalHash: p.proposal.hash }));
    expect((await verifyEvidencePack(serializeEvidencePack(p))).ok).toBe(false);
  });
  it("a missing approval event or execution link fails", async () => {
    const p = pack();
    p.refunds = [];
    expect((await verifyEvidencePack(serializeEvidencePack(p))).ok).toBe(false);
  });
});
