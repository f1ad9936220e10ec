// The gateway's hot path on node-postgres (lib/server/db/pg.ts): prepare_refund's proposal, its
// notifications (outbox rows, reviewer webhook delivery, their jobs) and its audit event commit in ONE
// transaction or not at all; withPgTransaction's limits (statement timeout, whole-transaction timeout,
// waiting for a connection) roll back and never leak a connection; rows read as Prisma reads them.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { pgPool, PgTransactionTimeoutError, sqlPool, withPgTransaction } from "@/lib/server/db/pg";
import { prepared, sql, type Sql } from "@/lib/server/db/sql";
import { ana, anthropicCall, ES, headersFor, send, tokenFor, webKey } from "./gateway-support";
import { createPaidOrder } from "../../scripts/lib/fixtures";

const tenantId = async () => (await db().tenant.findUniqueOrThrow({ where: { slug: ES }, select: { id: true } })).id;

async function freshOrder(amountMinor: number) {
  const t = await db().tenant.findUniqueOrThrow({ where: { slug: ES } });
  const o = await createPaidOrder(db(), t, { customerId: ana, amountMinor, prefix: "PG" });
  return { id: o.orderId, number: o.number };
}

const prepare = async (orderNumber: string, trace: string) =>
  send(
    anthropicCall("prepare_refund", { order_id: orderNumber, reason: "damaged_item" }),
    headersFor({ key: webKey(ES), token: await tokenFor(ES, ana), trace }),
  );

/** The transaction ids (xmin) of everything a proposal's creation wrote. */
async function writersOf(orderId: string, trace: string) {
  const [proposal] = (
    await sql<{
      id: string;
      xmin: string;
    }>`SELECT "id", xmin::text AS xmin FROM "Proposal" WHERE "orderId" = ${orderId}::uuid`.execute(sqlPool())
  ).rows;
  const pid = proposal?.id ?? "00000000-0000-0000-0000-000000000000";
  const notifications = (
    await sql<{
      id: string;
      xmin: string;
    }>`SELECT "id", xmin::text AS xmin FROM "Notification" WHERE "proposalId" = ${pid}::uuid`.execute(sqlPool())
  ).rows;
  const deliveries = (
    await sql<{
      id: string;
      xmin: string;
    }>`SELECT "id", xmin::text AS xmin FROM "WebhookDelivery" WHERE "proposalId" = ${pid}::uuid`.execute(sqlPool())
  ).rows;
  const ids = [...notifications.map((n) => n.id), ...deliveries.map((d) => d.id)];
  const jobs = (
    await sql<{ xmin: string }>`
    SELECT j.xmin::text AS xmin FROM graphile_worker._private_jobs j
     WHERE coalesce(j.payload->>'notificationId', j.payload->>'deliveryId') = ANY(${ids}::text[])`.execute(sqlPool())
  ).rows;
  const audit = (
    await sql<{ xmin: string; outcome: string }>`
    SELECT xmin::text AS xmin, "outcome" FROM "AuditEvent" WHERE "traceId" = ${trace} AND "action" = 'tool:prepare_refund'`.execute(
      sqlPool(),
    )
  ).rows;
  return { proposal, notifications, deliveries, jobs, audit };
}

describe("prepare_refund on one pg transaction", () => {
  let tenant: string;
  beforeAll(async () => {
    tenant = await tenantId();
    // Every kind of notification a new proposal causes: reviewers' e-mails, Slack, the reviewer webhook.
    process.env.SMTP_URL = "smtp://127.0.0.1:9";
    process.env.MAIL_FROM = "Approvals <approvals@example.test>";
    await db().tenant.update({
      where: { id: tenant },
      data: {
        slackWebhookUrl: "http://127.0.0.1:9/slack",
        reviewWebhookUrl: "http://127.0.0.1:9/hook",
        reviewWebhookSecret: "s".repeat(40),
      },
    });
  });
  afterAll(async () => {
    delete process.env.SMTP_URL;
    delete process.env.MAIL_FROM;
    await db().tenant.update({
      where: { id: tenant },
      data: { slackWebhookUrl: null, reviewWebhookUrl: null, reviewWebhookSecret: null },
    });
  });

  it("commits the proposal, its notifications, webhook delivery, their jobs and the audit event in the same transaction", async () => {
    const order = await freshOrder(2_500);
    const trace = `pg-tx-${randomUUID()}`;
    const answer = await prepare(order.number, trace);
    expect(answer.content.code).toBe("approval_required");
    const w = await writersOf(order.id, trace);
    expect(w.proposal).toBeDefined();
    // Two reviewers' e-mails and one Slack message (tienda-es seed), one webhook delivery, a job for each.
    expect(w.notifications.length).toBeGreaterThanOrEqual(2);
    expect(w.deliveries).toHaveLength(1);
    expect(w.jobs).toHaveLength(w.notifications.length + 1);
    expect(w.audit).toHaveLength(1);
    const xmins = new Set([
      w.proposal!.xmin,
      ...w.notifications.map((n) => n.xmin),
      ...w.deliveries.map((d) => d.xmin),
      ...w.jobs.map((j) => j.xmin),
      w.audit[0]!.xmin,
    ]);
    expect(xmins.size).toBe(1);
  });

  it("leaves nothing behind when the audit event cannot be written (no effect without its event)", async () => {
    const order = await freshOrder(3_100);
    const trace = `pg-fail-${randomUUID()}`;
    const [{ since } = { since: new Date(0) }] = (
      await sql<{ since: Date }>`SELECT (clock_timestamp() AT TIME ZONE 'UTC') AS since`.execute(sqlPool())
    ).rows;
    // The last statement of the transaction fails: the proposal and its notifications before it must go too.
    await sql`
      CREATE FUNCTION test_refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW."traceId" = ${sql.lit(trace)} THEN RAISE EXCEPTION 'audit refused by test'; END IF;
        RETURN NEW;
      END $$`.execute(sqlPool());
    await sql`CREATE TRIGGER test_refuse_audit BEFORE INSERT ON "AuditEvent" FOR EACH ROW EXECUTE FUNCTION test_refuse_audit()`.execute(
      sqlPool(),
    );
    try {
      const answer = await prepare(order.number, trace);
      expect(answer.content.code).toBe("internal_error");
    } finally {
      await sql`DROP TRIGGER test_refuse_audit ON "AuditEvent"`.execute(sqlPool());
      await sql`DROP FUNCTION test_refuse_audit()`.execute(sqlPool());
    }
    const w = await writersOf(order.id, trace);
    expect(w.proposal).toBeUndefined();
    // Nor any notification, webhook delivery or delivery job written since the order was made.
    expect(await db().notification.count({ where: { tenantId: tenant, createdAt: { gte: since } } })).toBe(0);
    expect(await db().webhookDelivery.count({ where: { tenantId: tenant, createdAt: { gte: since } } })).toBe(0);
    const [jobs] = (
      await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
       WHERE t.identifier IN ('deliver_notification', 'deliver_review_webhook') AND j.created_at >= ${since}::timestamptz`.execute(
        sqlPool(),
      )
    ).rows;
    expect(jobs!.n).toBe(0);
    expect(w.audit).toHaveLength(0);
    // The same order prepares normally afterwards (the lock and the connection were released).
    const again = await prepare(order.number, `pg-again-${randomUUID()}`);
    expect(again.content.code).toBe("approval_required");
  });
});

describe("withPgTransaction", () => {
  const counter = (trace: string) => sql`
    INSERT INTO "AgentTraceCounter" ("tenantId", "traceId", "counter", "count", "updatedAt")
    SELECT "id", ${trace}, 'calls', 1, (now() AT TIME ZONE 'UTC') FROM "Tenant" WHERE "slug" = ${ES}`;
  const counted = async (trace: string) => (await db().agentTraceCounter.count({ where: { traceId: trace } })) > 0;
  const limits = { maxWait: 10_000, timeout: 15_000 };

  it("commits what fn wrote and returns its value; rolls back and rethrows when fn throws", async () => {
    const ok = `pg-commit-${randomUUID()}`;
    expect(await withPgTransaction(async (tx) => (await counter(ok).execute(tx), "done"), limits)).toBe("done");
    expect(await counted(ok)).toBe(true);

    const bad = `pg-rollback-${randomUUID()}`;
    await expect(
      withPgTransaction(async (tx) => {
        await counter(bad).execute(tx);
        throw new Error("boom");
      }, limits),
    ).rejects.toThrow("boom");
    expect(await counted(bad)).toBe(false);
  });

  it("bounds each statement by the timeout (statement_timeout) and rolls back", async () => {
    const trace = `pg-stmt-timeout-${randomUUID()}`;
    await expect(
      withPgTransaction(
        async (tx) => {
          await counter(trace).execute(tx);
          await sql`SELECT pg_sleep(5)`.execute(tx);
        },
        { maxWait: 10_000, timeout: 200 },
      ),
    ).rejects.toThrow(/statement timeout/);
    expect(await counted(trace)).toBe(false);
  });

  it("bounds the whole transaction by the timeout: a statement after the deadline is refused, nothing commits", async () => {
    const trace = `pg-tx-timeout-${randomUUID()}`;
    await expect(
      withPgTransaction(
        async (tx) => {
          await counter(trace).execute(tx);
          await new Promise((r) => setTimeout(r, 300));
          await sql`SELECT 1`.execute(tx);
        },
        { maxWait: 10_000, timeout: 100 },
      ),
    ).rejects.toBeInstanceOf(PgTransactionTimeoutError);
    expect(await counted(trace)).toBe(false);
  });

  it("gives up waiting for a connection after maxWait, and the pool still serves afterwards", async () => {
    const pool = pgPool();
    const held = await Promise.all(Array.from({ length: pool.options.max ?? 10 }, () => pool.connect()));
    try {
      await expect(withPgTransaction(async () => "never", { maxWait: 100, timeout: 15_000 })).rejects.toThrow(
        /waiting for a database connection/,
      );
    } finally {
      for (const c of held) c.release();
    }
    expect(
      await withPgTransaction(async (tx) => (await sql<{ n: number }>`SELECT 1 AS n`.execute(tx)).rows[0]?.n, limits),
    ).toBe(1);
  });

  it("returns every connection, also after failed transactions (more failures than the pool has connections)", async () => {
    const size = pgPool().options.max ?? 10;
    for (let i = 0; i < size + 3; i++) {
      await expect(withPgTransaction(async (tx) => sql`SELECT 1/0`.execute(tx), limits)).rejects.toThrow(
        /division by zero/,
      );
    }
    expect(pgPool().totalCount).toBeLessThanOrEqual(size);
    expect(
      await withPgTransaction(async (tx) => (await sql<{ n: number }>`SELECT 2 AS n`.execute(tx)).rows[0]?.n, limits),
    ).toBe(2);
  });

  it("refuses statements once the transaction is finished (a leaked client cannot write outside it)", async () => {
    let leaked: Sql | null = null;
    await withPgTransaction(async (tx) => {
      leaked = tx;
    }, limits);
    await expect(sql`SELECT 1`.execute(leaked!)).rejects.toThrow(/already finished/);
  });
});

describe("rows through pg read as Prisma reads them", () => {
  it("timestamps (stored without time zone, in UTC) whatever the process's time zone; int8 as bigint; same role", async () => {
    const before = process.env.TZ;
    process.env.TZ = "Pacific/Auckland";
    try {
      const viaPrisma = await db().tenant.findUniqueOrThrow({
        where: { slug: ES },
        select: { id: true, createdAt: true },
      });
      const [viaPg] = (
        await sql<{ createdAt: Date }>`SELECT "createdAt" FROM "Tenant" WHERE "id" = ${viaPrisma.id}::uuid`.execute(
          sqlPool(),
        )
      ).rows;
      expect(viaPg!.createdAt).toBeInstanceOf(Date);
      expect(viaPg!.createdAt.toISOString()).toBe(viaPrisma.createdAt.toISOString());
    } finally {
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    }
    const [n] = (await sql<{ n: unknown }>`SELECT 9007199254740993::int8 AS n`.execute(sqlPool())).rows;
    expect(n!.n).toBe(9007199254740993n);
    const [me] = (await sql<{ who: string }>`SELECT current_user AS who`.execute(sqlPool())).rows;
    const [prismaMe] = (await sql<{ who: string }>`SELECT current_user AS who`.execute(sqlPool())).rows;
    expect(me!.who).toBe(prismaMe!.who);
  });
});

describe("prepared statements (prepared(sql`…`))", () => {
  it("run as one named statement per text on each connection, with their own values; unmarked statements stay unnamed", async () => {
    const id = await tenantId();
    const lookup = (slug: string) =>
      prepared(
        sql<{
          id: string;
          slug: string;
          createdAt: Date;
        }>`SELECT "id", "slug", "createdAt" FROM "Tenant" WHERE "slug" = ${slug}`,
      );
    // More concurrent runs than one connection: several pool connections each prepare the text once.
    const rows = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => (await lookup(i % 2 ? ES : "no-such").execute(sqlPool())).rows),
    );
    rows.forEach((r, i) => expect(r.map((x) => x.id)).toEqual(i % 2 ? [id] : []));
    expect(rows[1]![0]!.createdAt).toBeInstanceOf(Date); // the row types still apply
    // On one connection (a transaction's): the text is held once, under a name derived from it; a second
    // prepared text gets another name; an unmarked statement is not held at all.
    const held = await withPgTransaction(
      async (tx) => {
        await lookup(ES).execute(tx);
        await lookup("again").execute(tx);
        expect((await prepared(sql<{ n: number }>`SELECT ${2}::int AS n`).execute(tx)).rows[0]!.n).toBe(2);
        await sql`SELECT ${3}::int AS unmarked`.execute(tx);
        return (
          await sql<{ name: string; statement: string }>`SELECT name, statement FROM pg_prepared_statements`.execute(tx)
        ).rows;
      },
      { maxWait: 5_000, timeout: 5_000 },
    );
    const texts = held.map((h) => h.statement);
    expect(texts.filter((t) => t === lookup(ES).compile(sqlPool()).sql)).toHaveLength(1);
    expect(texts).toContain("SELECT $1::int AS n");
    expect(texts).not.toContain("SELECT $1::int AS unmarked");
    expect(new Set(held.map((h) => h.name)).size).toBe(held.length);
    for (const h of held) expect(h.name).toMatch(/^q_[0-9a-f]{30}$/);
  });
});
