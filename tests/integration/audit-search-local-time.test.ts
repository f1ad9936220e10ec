// Auditor search by local date and time, against the real database: the viewer's IANA zone travels with
// the search and wall-clock bounds are read in it, across DST changes (a skipped hour and a repeated hour).
// Events are written by the real audit writer at chosen instants (only `Date` is faked while writing).
import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/server/db/client";
import { sqlOf } from "@/lib/server/db/sql";
import { recordAuditEvent } from "@/lib/server/audit/record-event";
import { searchAuditEvents } from "@/lib/server/audit/search-audit-events";
import { ES, US, ana, freshTrace } from "./gateway-support";
import { actorOf, approvedProposal } from "./audit-support";
import { transaction } from "@/lib/server/db/transaction";

afterEach(() => {
  vi.useRealTimers();
});

/** One event of the tenant under `trace`, written as if at `instant`. */
async function eventAt(tenantId: string, trace: string, instant: string, label: string) {
  vi.useFakeTimers({ toFake: ["Date"], now: new Date(instant) });
  try {
    await transaction((tx) =>
      recordAuditEvent(sqlOf(tx), {
        tenantId,
        traceId: trace,
        actor: { type: "system", id: "test-clock" },
        action: "test:event",
        outcome: "ok",
        data: { label },
        redaction: { clear: ["label"] },
      }),
    );
  } finally {
    vi.useRealTimers();
  }
}

async function labels(tenant: string, input: Parameters<typeof searchAuditEvents>[1]) {
  const page = await searchAuditEvents(await actorOf(tenant, "auditor"), { ...input, limit: 200 });
  return page.events.map((e) => (e.data as { label: string }).label).sort();
}

describe("audit search in the viewer's time zone", () => {
  it("reads wall-clock bounds in the zone across the spring-forward gap (Europe/Madrid, 2026-03-29 02:00 → 03:00)", async () => {
    const es = await db().tenant.findUniqueOrThrow({ where: { slug: ES } });
    const trace = freshTrace();
    await eventAt(es.id, trace, "2026-03-29T00:30:00Z", "A 01:30 CET");
    await eventAt(es.id, trace, "2026-03-29T01:15:00Z", "B 03:15 CEST");
    await eventAt(es.id, trace, "2026-03-29T01:45:00Z", "C 03:45 CEST");
    await eventAt(es.id, trace, "2026-03-29T02:30:00Z", "D 04:30 CEST");

    // 01:00 local (00:00Z) to 03:30 local (01:30Z, after the jump), the end minute included.
    expect(
      await labels(ES, { traceId: trace, from: "2026-03-29T01:00", to: "2026-03-29T03:30", tz: "Europe/Madrid" }),
    ).toEqual(["A 01:30 CET", "B 03:15 CEST"]);
    // The same typed values in UTC mean other instants — and find other events.
    expect(await labels(ES, { traceId: trace, from: "2026-03-29T01:00", to: "2026-03-29T03:30", tz: "UTC" })).toEqual([
      "B 03:15 CEST",
      "C 03:45 CEST",
      "D 04:30 CEST",
    ]);
    // No zone: UTC.
    expect(await labels(ES, { traceId: trace, from: "2026-03-29T01:00", to: "2026-03-29T03:30" })).toEqual([
      "B 03:15 CEST",
      "C 03:45 CEST",
      "D 04:30 CEST",
    ]);
    // The end minute is inclusive: "to 03:45" finds what is shown as 03:45.
    expect(
      await labels(ES, { traceId: trace, from: "2026-03-29T03:45", to: "2026-03-29T03:45", tz: "Europe/Madrid" }),
    ).toEqual(["C 03:45 CEST"]);
    // Another zone on the same instants (New York is UTC-4 then).
    expect(
      await labels(ES, { traceId: trace, from: "2026-03-28T21:00", to: "2026-03-28T21:59", tz: "America/New_York" }),
    ).toEqual(["B 03:15 CEST", "C 03:45 CEST"]);
    // Instants with an offset are taken as they are, whatever the zone.
    expect(
      await labels(ES, {
        traceId: trace,
        from: "2026-03-29T02:00:00Z",
        to: "2026-03-29T04:00:00+01:00",
        tz: "Asia/Tokyo",
      }),
    ).toEqual(["D 04:30 CEST"]);
  });

  it("a repeated hour (fall back, 2026-10-25 03:00 CEST → 02:00 CET) is covered whole: both 02:40s are found", async () => {
    const es = await db().tenant.findUniqueOrThrow({ where: { slug: ES } });
    const trace = freshTrace();
    await eventAt(es.id, trace, "2026-10-25T00:40:00Z", "E 02:40 CEST");
    await eventAt(es.id, trace, "2026-10-25T01:40:00Z", "F 02:40 CET");
    await eventAt(es.id, trace, "2026-10-25T02:10:00Z", "G 03:10 CET");
    expect(
      await labels(ES, { traceId: trace, from: "2026-10-25T02:30", to: "2026-10-25T02:45", tz: "Europe/Madrid" }),
    ).toEqual(["E 02:40 CEST", "F 02:40 CET"]);
    expect(await labels(ES, { traceId: trace, from: "2026-10-25T03:00", tz: "Europe/Madrid" })).toEqual([
      "G 03:10 CET",
    ]);
  });

  it("refuses a zone Intl does not know and a date that does not exist, with invalid_arguments; records the zone searched in", async () => {
    const auditor = await actorOf(ES, "auditor");
    for (const tz of ["Mars/Olympus_Mons", "+02:00", "Europe/Madrid; DROP TABLE"])
      await expect(searchAuditEvents(auditor, { from: "2026-03-29T01:00", tz })).rejects.toMatchObject({
        code: "invalid_arguments",
      });
    await expect(searchAuditEvents(auditor, { from: "2026-02-30T01:00", tz: "Europe/Madrid" })).rejects.toMatchObject({
      code: "invalid_arguments",
    });
    await expect(searchAuditEvents(auditor, { from: "next tuesday" })).rejects.toMatchObject({
      code: "invalid_arguments",
    });
    await searchAuditEvents(auditor, { from: "2026-03-29T01:00", tz: "Europe/Madrid" });
    const ev = await db().auditEvent.findFirstOrThrow({
      where: { actorId: auditor.userId, action: "audit:search" },
      orderBy: { pos: "desc" },
    });
    expect(ev.data).toMatchObject({ tz: "Europe/Madrid", from: "2026-03-29T00:00:00.000Z" });
  });
});

describe("actor names", () => {
  it("names staff (name and email) and agent keys of the viewer's tenant; an id of another tenant names nobody", async () => {
    const { proposal } = await approvedProposal(ana);
    const reviewer = await actorOf(ES, "reviewer");
    const page = await searchAuditEvents(await actorOf(ES, "auditor"), { proposalId: proposal.id });
    const approve = page.events.find((e) => e.action === "proposal:approve")!;
    expect(approve).toMatchObject({ actorId: reviewer.userId, actorName: `${reviewer.name} <${reviewer.email}>` });
    const prepare = page.events.find((e) => e.action === "tool:prepare_refund")!;
    const key = await db().agentKey.findUniqueOrThrow({ where: { id: prepare.actorId! } });
    expect(prepare.actorName).toBe(key.name);

    // A staff id from shop-us written into a tienda-es event (as a forged or migrated row would be).
    const usAdmin = await actorOf(US, "admin");
    const trace = freshTrace();
    await transaction((tx) =>
      recordAuditEvent(sqlOf(tx), {
        tenantId: reviewer.tenantId,
        traceId: trace,
        actor: { type: "staff", id: usAdmin.userId },
        action: "test:foreign",
        outcome: "ok",
      }),
    );
    const foreign = await searchAuditEvents(await actorOf(ES, "auditor"), { traceId: trace, action: "test:foreign" });
    expect(foreign.events).toHaveLength(1);
    expect(foreign.events[0]).toMatchObject({ actorId: usAdmin.userId, actorName: null });
    expect(JSON.stringify(foreign.events)).not.toContain(usAdmin.email);
  });
});
