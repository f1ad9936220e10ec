// The audited search without an interactive transaction: the page is read, then its search event is committed
// (one statement), and only then are results returned. If the event cannot be written, the caller gets an
// error and no results.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { sqlPool } from "@/lib/server/db/pg";
import { sql } from "@/lib/server/db/sql";
import { searchAuditEvents } from "@/lib/server/audit/search-audit-events";
import { ES, ana } from "./gateway-support";
import { actorOf, preparedProposal } from "./audit-support";

describe("audited search: no results without the record", () => {
  it("a search whose audit event cannot be written returns nothing; once it can, the same search answers and is recorded", async () => {
    const { trace } = await preparedProposal(ana);
    const auditor = await actorOf(ES, "auditor");
    const fn = `refuse_search_${randomUUID().replace(/-/g, "")}`;
    // Refuses only this test's search event (other tests share the database).
    // DDL takes no parameters: the names go in as identifiers, the trace id as a literal.
    const name = sql.id(fn);
    await sql`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit write refused by the test'; END $$`.execute(
      sqlPool(),
    );
    await sql`CREATE TRIGGER ${name} BEFORE INSERT ON "AuditEvent" FOR EACH ROW WHEN (NEW."traceId" = ${sql.lit(`audit:${trace}`)}) EXECUTE FUNCTION ${name}()`.execute(
      sqlPool(),
    );
    try {
      await expect(searchAuditEvents(auditor, { traceId: trace })).rejects.toThrow();
      expect(await db().auditEvent.count({ where: { traceId: `audit:${trace}` } })).toBe(0);
    } finally {
      await sql`DROP TRIGGER ${name} ON "AuditEvent"`.execute(sqlPool());
      await sql`DROP FUNCTION ${name}()`.execute(sqlPool());
    }
    const page = await searchAuditEvents(auditor, { traceId: trace });
    expect(page.events.map((e) => e.action)).toContain("tool:prepare_refund");
    const recorded = await db().auditEvent.findMany({ where: { traceId: `audit:${trace}` } });
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ action: "audit:search", outcome: "ok", actorId: auditor.userId });
    expect((recorded[0]!.data as { results?: number }).results).toBe(page.events.length);
  });
});
