import { describe, expect, it } from "vitest";
import { auditContentHash, auditLinkHash, verifyChainEvents, type ChainedEvent } from "./audit-chain";

export function chain(n: number, tenantId = "00000000-0000-4000-8000-000000000001", from = 1, prev: string | null = null): ChainedEvent[] {
  const out: ChainedEvent[] = [];
  for (let seq = from; seq < from + n; seq++) {
    const content = {
      tenantId, occurredAt: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)), traceId: `t${seq % 2}`, actorType: "system", actorId: "x", authMethod: null,
      action: "tool:lookup_order", outcome: "ok", proposalId: null, proposalHash: null, model: null, promptVersion: null, channel: null, endUser: null,
      data: { n: seq }, fingerprints: [],
    };
    const hash = auditLinkHash(prev, seq, auditContentHash(content));
    out.push({ ...content, id: `e${seq}`, seq, prevHash: prev, hash });
    prev = hash;
  }
  return out;
}

describe("verifyChainEvents", () => {
  it("an untouched chain verifies", () => {
    expect(verifyChainEvents(chain(5))).toEqual({ ok: true, events: 5 });
  });
  it("names a changed event", () => {
    const c = chain(5);
    c[2] = { ...c[2]!, outcome: "permission_denied" };
    expect(verifyChainEvents(c)).toMatchObject({ ok: false, brokenAtSeq: 3, eventId: "e3" });
  });
  it("names the event after a deleted one, and a deleted first event", () => {
    const c = chain(5);
    expect(verifyChainEvents([...c.slice(0, 2), ...c.slice(3)])).toMatchObject({ ok: false, brokenAtSeq: 4 });
    expect(verifyChainEvents(c.slice(1))).toMatchObject({ ok: false, brokenAtSeq: 2 });
  });
  it("names a reordered pair (seqs swapped with the content)", () => {
    const c = chain(5);
    const swapped = [c[0]!, { ...c[2]!, seq: 2 }, { ...c[1]!, seq: 3 }, c[3]!, c[4]!];
    expect(verifyChainEvents(swapped)).toMatchObject({ ok: false, brokenAtSeq: 2 });
  });
  it("starts from a checkpoint; held events before it verify on their own", () => {
    const c = chain(6);
    const cp = { lastSeq: 4, lastHash: c[3]!.hash };
    expect(verifyChainEvents([c[1]!, c[4]!, c[5]!], cp)).toEqual({ ok: true, events: 3 });
    expect(verifyChainEvents([c[5]!], cp)).toMatchObject({ ok: false, brokenAtSeq: 6 });
    expect(verifyChainEvents([{ ...c[1]!, data: { n: 99 } }, c[4]!, c[5]!], cp)).toMatchObject({ ok: false, brokenAtSeq: 2 });
    expect(verifyChainEvents(c.slice(4), { lastSeq: 4, lastHash: "0".repeat(64) })).toMatchObject({ ok: false, brokenAtSeq: 5 });
  });
});
