// Auditor search against the real database: events made by the real gateway and use cases; the search
// itself is audited; tenants and roles are kept apart.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { auditFingerprint } from "@/lib/server/audit/fingerprint";
import { searchAuditEvents } from "@/lib/server/audit/search-audit-events";
import { exportAuditEvents } from "@/lib/server/audit/export-audit-events";
import { getAuditTrace } from "@/lib/server/audit/get-audit-trace";
import {
  ES,
  US,
  ana,
  john,
  pablo,
  anthropicCall,
  freshTrace,
  headersFor,
  send,
  tokenFor,
  webKey,
} from "./gateway-support";
import { actorOf, approvedProposal, customerEmail, preparedProposal } from "./audit-support";

const lastSearchBy = (userId: string, action = "audit:search") =>
  db().auditEvent.findFirstOrThrow({ where: { actorId: userId, action }, orderBy: { pos: "desc" } });

describe("audit search", () => {
  it("finds a trace by its id (exactly), oldest last, and records who searched for what", async () => {
    const { proposal, trace } = await preparedProposal(ana);
    const auditor = await actorOf(ES, "auditor");
    const page = await searchAuditEvents(auditor, { traceId: trace });
    expect(page.events.map((e) => e.action)).toEqual(["tool:prepare_refund", "tool:lookup_order"]);
    expect(page.events.every((e) => e.traceId === trace)).toBe(true);
    expect(page.events[0]).toMatchObject({ proposalId: proposal.id, proposalHash: proposal.hash });
    expect((await searchAuditEvents(auditor, { traceId: trace.slice(0, -1) })).events).toEqual([]);
    const ev = await lastSearchBy(auditor.userId);
    expect(ev).toMatchObject({ tenantId: auditor.tenantId, actorType: "staff", outcome: "ok" });
    expect(ev.traceId).toBe(`audit:${trace.slice(0, -1)}`);
  });

  it("filters by action, outcome, proposal, actor and time range", async () => {
    const { proposal, trace } = await approvedProposal(ana);
    const auditor = await actorOf(ES, "auditor");
    const reviewer = await actorOf(ES, "reviewer");
    const byProposal = await searchAuditEvents(auditor, { proposalId: proposal.id });
    expect(byProposal.events.map((e) => e.action)).toEqual(["proposal:approve", "tool:prepare_refund"]);
    const approve = await searchAuditEvents(auditor, {
      proposalId: proposal.id,
      action: "proposal:approve",
      outcome: "ok",
    });
    expect(approve.events).toHaveLength(1);
    expect(approve.events[0]).toMatchObject({ actorId: reviewer.userId, authMethod: "session" });
    const byActorEmail = await searchAuditEvents(auditor, { actor: reviewer.email, proposalId: proposal.id });
    expect(byActorEmail.events.map((e) => e.id)).toEqual([approve.events[0]!.id]);
    expect((await searchAuditEvents(auditor, { traceId: trace, outcome: "permission_denied" })).events).toEqual([]);
    const at = new Date(approve.events[0]!.occurredAt);
    const window = await searchAuditEvents(auditor, {
      proposalId: proposal.id,
      from: new Date(at.getTime() - 1).toISOString(),
      to: new Date(at.getTime() + 1).toISOString(),
    });
    expect(window.events.map((e) => e.action)).toContain("proposal:approve");
    const future = await searchAuditEvents(auditor, {
      proposalId: proposal.id,
      from: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect(future.events).toEqual([]);
  });

  it("pages with a keyset cursor: newest first, no overlap, nothing missed", async () => {
    const trace = freshTrace();
    const token = await tokenFor(ES, ana);
    for (let i = 0; i < 5; i++)
      await send(anthropicCall("lookup_order", { order_id: "ORD-1001" }), headersFor({ token, trace }));
    const auditor = await actorOf(ES, "auditor");
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await searchAuditEvents(auditor, { traceId: trace, limit: 2, cursor });
      seen.push(...page.events.map((e) => e.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toHaveLength(5);
    const newestFirst = (
      await db().auditEvent.findMany({ where: { traceId: trace }, orderBy: { pos: "desc" }, select: { id: true } })
    ).map((e) => e.id);
    expect(seen).toEqual(newestFirst);
    expect(new Set(seen).size).toBe(5);
  });

  it("a customer's email finds that customer's events by fingerprint; the typed email is stored nowhere", async () => {
    const email = customerEmail(ES, "ana");
    const trace = freshTrace();
    await send(
      anthropicCall("lookup_order", { order_id: "ORD-1001" }),
      headersFor({ token: await tokenFor(ES, ana), trace }),
    );
    // Mentioned in free text by another customer's conversation: found through the email's own fingerprint.
    const other = freshTrace();
    await send(
      anthropicCall("create_support_ticket", {
        category: "billing",
        priority: "low",
        summary: `please write to ${email} about it`,
      }),
      headersFor({ token: await tokenFor(ES, ana), trace: other }),
    );
    const auditor = await actorOf(ES, "auditor");
    const page = await searchAuditEvents(auditor, { subject: email.toUpperCase(), limit: 200 });
    const traces = new Set(page.events.map((e) => e.traceId));
    expect(traces.has(trace)).toBe(true);
    expect(traces.has(other)).toBe(true);
    expect(
      page.events.every(
        (e) => e.fingerprints.includes(auditFingerprint(email)) || e.fingerprints.includes(auditFingerprint(ana)),
      ),
    ).toBe(true);
    // Pablo's events are not Ana's: his own call (which names no email) is not found, and every event found
    // for an end user is Ana's (there is at least one).
    const pablos = freshTrace();
    await send(
      anthropicCall("lookup_order", { order_id: "ORD-1003" }),
      headersFor({ token: await tokenFor(ES, pablo), trace: pablos }),
    );
    const again = await searchAuditEvents(auditor, { subject: email, limit: 200 });
    expect(again.events.some((e) => e.traceId === pablos)).toBe(false);
    const endUsers = again.events.map((e) => e.endUser).filter((u) => u !== null);
    expect(endUsers.length).toBeGreaterThan(0);
    expect(new Set(endUsers)).toEqual(new Set([auditFingerprint(ana)]));

    const ev = await lastSearchBy(auditor.userId);
    const stored = JSON.stringify(ev);
    expect(stored).not.toContain(email);
    expect(stored.toLowerCase()).not.toContain(email.toLowerCase());
    expect(ev.fingerprints).toContain(auditFingerprint(email));
  });

  it("tenant isolation: a shop-us auditor finds nothing of tienda-es, by trace, proposal or fingerprint", async () => {
    const { proposal, trace } = await approvedProposal(ana);
    const us = await actorOf(US, "auditor");
    expect((await searchAuditEvents(us, { traceId: trace })).events).toEqual([]);
    expect((await searchAuditEvents(us, { proposalId: proposal.id })).events).toEqual([]);
    expect((await searchAuditEvents(us, { subject: customerEmail(ES, "ana") })).events).toEqual([]);
    const view = await getAuditTrace(us, trace);
    expect(view.steps).toEqual([]);
    expect(view.proposals).toEqual([]);
    // …and their own tenant's customer is found.
    const johns = freshTrace();
    await send(
      anthropicCall("lookup_order", { order_id: "ORD-2001" }),
      headersFor({ key: webKey(US), token: await tokenFor(US, john), trace: johns }),
    );
    const mine = await searchAuditEvents(us, { subject: customerEmail(US, "john") });
    expect(mine.events.map((e) => e.traceId)).toContain(johns);
    expect(mine.events.every((e) => e.fingerprints.includes(auditFingerprint(john)))).toBe(true);
  });

  it("ops and reviewers are refused anything broader than one exact trace, and nothing is returned to them", async () => {
    for (const role of ["ops", "reviewer"] as const) {
      const actor = await actorOf(ES, role);
      await expect(searchAuditEvents(actor, { action: "tool:lookup_order" })).rejects.toMatchObject({
        code: "permission_denied",
      });
      await expect(searchAuditEvents(actor, { traceId: "x", outcome: "ok" })).rejects.toMatchObject({
        code: "permission_denied",
      });
      await expect(exportAuditEvents(actor, { traceId: "x" }, "csv")).rejects.toMatchObject({
        code: "permission_denied",
      });
    }
    const admin = await actorOf(ES, "admin");
    expect(Array.isArray((await searchAuditEvents(admin, { action: "tool:lookup_order" })).events)).toBe(true);
  });

  it("exports CSV and JSON of a result, each export an audit event", async () => {
    const { trace } = await preparedProposal(ana);
    const auditor = await actorOf(ES, "auditor");
    const csv = await exportAuditEvents(auditor, { traceId: trace, tz: "America/New_York" }, "csv");
    const lines = csv.body.trim().split("\r\n");
    // One clock: UTC, then the same instant in the search's zone with its offset; the actor's name beside the id.
    expect(lines[0]).toMatch(/^leafIndex,occurredAt,occurredAtLocal,traceId,actorType,actorId,actorName,/);
    expect(lines[1]).toMatch(
      /^"[^"]*","\d{4}-\d\d-\d\dT[^"]+Z","\d{4}-\d\d-\d\d \d\d:\d\d:\d\d GMT-[45]","[^"]+","agent","[^"]+","Web support chat agent",/,
    );
    expect(lines).toHaveLength(3);
    expect(csv.body).toContain(trace);
    const json = await exportAuditEvents(auditor, { traceId: trace }, "json");
    expect((JSON.parse(json.body) as { events: unknown[] }).events).toHaveLength(2);
    const ev = await lastSearchBy(auditor.userId, "audit:export");
    expect(ev.data).toMatchObject({ format: "json", count: 2 });
    expect(ev.traceId).toBe(`audit:${trace}`);
  });

  it("the trace view tells the story in order with deltas: agent call, proposal, approval", async () => {
    const { proposal, trace } = await approvedProposal(ana);
    const view = await getAuditTrace(await actorOf(ES, "auditor"), trace);
    expect(view.steps.map((s) => [s.stage, s.action])).toEqual([
      ["agent", "tool:lookup_order"],
      ["proposal", "tool:prepare_refund"],
      ["approval", "proposal:approve"],
    ]);
    expect(view.steps[0]!.deltaMs).toBe(0);
    expect(view.steps[2]!.deltaMs).toBeGreaterThanOrEqual(view.steps[1]!.deltaMs);
    // Actors by name: the agent key's and the reviewer's, of this tenant.
    const reviewer = await actorOf(ES, "reviewer");
    const reviewerName = (await db().staffUser.findUniqueOrThrow({ where: { id: reviewer.userId } })).name;
    expect(view.steps.map((s) => [s.actorType, s.actorName])).toEqual([
      ["agent", "Web support chat agent"],
      ["agent", "Web support chat agent"],
      ["staff", reviewerName],
    ]);
    expect(view.proposals[0]).toMatchObject({ id: proposal.id, hash: proposal.hash, status: "approved" });
    expect(view.proposals[0]!.approvals[0]).toMatchObject({ authMethod: "session", passkeyCheck: "not_applicable" });
    expect(await db().auditEvent.count({ where: { action: "audit:view_trace", traceId: `audit:${trace}` } })).toBe(1);
  });
});
