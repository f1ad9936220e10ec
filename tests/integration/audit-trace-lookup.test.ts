// Reviewers (and ops) look up one trace by its exact traceId — the same redacted timeline auditors
// see — and nothing broader. Every lookup and every refusal is an audit event; another tenant's trace is not found.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { auditFingerprint } from "@/lib/server/audit/fingerprint";
import { searchAuditEvents } from "@/lib/server/audit/search-audit-events";
import { exportAuditEvents } from "@/lib/server/audit/export-audit-events";
import { getAuditTrace } from "@/lib/server/audit/get-audit-trace";
import { buildEvidencePack } from "@/lib/server/audit/build-evidence-pack";
import { ES, US, ana, anthropicCall, headersFor, send, tokenFor } from "./gateway-support";
import { actorOf, customerEmail, preparedProposal } from "./audit-support";

const eventsBy = (userId: string, action: string) =>
  db().auditEvent.findMany({ where: { actorId: userId, action }, orderBy: { pos: "asc" } });

describe("looking up one trace (audit:trace)", () => {
  it("a reviewer's exact-traceId search returns the agent's calls in order, redacted as auditors see them, and is audited", async () => {
    const { proposal, trace } = await preparedProposal(ana);
    // A call that mentions an email in free text: the reviewer must see it masked, exactly as an auditor does.
    const email = customerEmail(ES, "ana");
    await send(
      anthropicCall("create_support_ticket", { category: "billing", priority: "low", summary: `write to ${email}` }),
      headersFor({ token: await tokenFor(ES, ana), trace }),
    );
    const reviewer = await actorOf(ES, "reviewer");
    const auditor = await actorOf(ES, "auditor");

    const mine = await searchAuditEvents(reviewer, { traceId: trace });
    const theirs = await searchAuditEvents(auditor, { traceId: trace });
    expect(mine.events.map((e) => e.action)).toEqual([
      "tool:create_support_ticket",
      "tool:prepare_refund",
      "tool:lookup_order",
    ]);
    expect(mine.events).toEqual(theirs.events);
    expect(JSON.stringify(mine.events)).not.toContain(email);
    expect(mine.events[1]).toMatchObject({ proposalId: proposal.id, proposalHash: proposal.hash });

    const [searched] = await eventsBy(reviewer.userId, "audit:search");
    expect(searched).toMatchObject({
      tenantId: reviewer.tenantId,
      traceId: `audit:${trace}`,
      outcome: "ok",
      actorType: "staff",
    });

    // The trace page's use case: same events in chain order, the proposal, and a view event of its own.
    const view = await getAuditTrace(reviewer, trace);
    expect(view.steps.map((s) => s.action)).toEqual([
      "tool:lookup_order",
      "tool:prepare_refund",
      "tool:create_support_ticket",
    ]);
    expect(view.proposals.map((p) => p.id)).toEqual([proposal.id]);
    const [viewed] = await eventsBy(reviewer.userId, "audit:view_trace");
    expect(viewed).toMatchObject({ traceId: `audit:${trace}`, outcome: "ok" });
  });

  it("ops may look up a trace too", async () => {
    const { trace } = await preparedProposal(ana);
    const ops = await actorOf(ES, "ops");
    expect((await searchAuditEvents(ops, { traceId: trace })).events.map((e) => e.action)).toEqual([
      "tool:prepare_refund",
      "tool:lookup_order",
    ]);
  });

  it("the same reviewer's fingerprint search, filtered search without a traceId, export and evidence pack are refused and audited", async () => {
    const { proposal, trace } = await preparedProposal(ana);
    const reviewer = await actorOf(ES, "reviewer");
    const email = customerEmail(ES, "ana");
    const before =
      (await db().auditEvent.aggregate({ _max: { pos: true }, where: { tenantId: reviewer.tenantId } }))._max.pos ?? 0n;
    const refusals: [string, () => Promise<unknown>][] = [
      ["audit:search", () => searchAuditEvents(reviewer, { subject: email })],
      ["audit:search", () => searchAuditEvents(reviewer, { action: "tool:prepare_refund" })],
      ["audit:search", () => searchAuditEvents(reviewer, { from: new Date(Date.now() - 60_000).toISOString() })],
      // A traceId plus any other filter is a search, not a lookup.
      ["audit:search", () => searchAuditEvents(reviewer, { traceId: trace, outcome: "ok" })],
      ["audit:export", () => exportAuditEvents(reviewer, { traceId: trace }, "csv")],
      ["audit:evidence_pack", () => buildEvidencePack(reviewer, proposal.id)],
    ];
    for (const [, attempt] of refusals) await expect(attempt()).rejects.toMatchObject({ code: "permission_denied" });

    const denied = await db().auditEvent.findMany({
      where: { actorId: reviewer.userId, pos: { gt: before } },
      orderBy: { pos: "asc" },
    });
    expect(denied.map((e) => e.action)).toEqual(refusals.map(([action]) => action));
    expect(denied.every((e) => e.tenantId === reviewer.tenantId)).toBe(true);
    // The refused fingerprint search records who looked for what without the typed email itself.
    expect(JSON.stringify(denied[0]!.data)).not.toContain(email);
    expect(denied[0]!.fingerprints).toContain(auditFingerprint(email));
    expect(denied[0]!.data).toMatchObject({ permission: "audit:read" });
    // Nothing but the refusals was recorded for them: no successful search, export or pack.
    expect(denied.every((e) => e.outcome === "permission_denied")).toBe(true);
  });

  it("another tenant's traceId is not found, whatever the role", async () => {
    const { trace } = await preparedProposal(ana);
    for (const role of ["reviewer", "ops", "auditor", "admin"] as const) {
      const us = await actorOf(US, role);
      expect((await searchAuditEvents(us, { traceId: trace })).events).toEqual([]);
      const view = await getAuditTrace(us, trace);
      expect(view.steps).toEqual([]);
      expect(view.proposals).toEqual([]);
      const [recorded] = await db().auditEvent.findMany({
        where: { actorId: us.userId, action: "audit:view_trace" },
        orderBy: { pos: "desc" },
        take: 1,
      });
      expect(recorded).toMatchObject({ tenantId: us.tenantId, outcome: "not_found" });
    }
  });
});
