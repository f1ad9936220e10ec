// The typed SQL layer (lib/server/db/sql.ts) on the pool, a pg transaction (withPgTransaction) and the
// transaction of a use case with Prisma's model API on it (transaction(), sqlOf(tx)): the same statement reads
// the same values on each (int8 as bigint, timestamps as Date in UTC, uuid parameters without casts), writes
// report their row count, statements join the caller's transaction (rolled back with it), a handle refuses to
// open a transaction of its own, and prepared() runs a named statement on pg.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { pgPool, sqlPool, withPgTransaction } from "@/lib/server/db/pg";
import { prepared, sql, sqlOf, type Sql } from "@/lib/server/db/sql";
import { transaction } from "@/lib/server/db/transaction";

const LIMITS = { maxWait: 5_000, timeout: 10_000 };

async function tenantRow(handle: Sql) {
  const t = await db().tenant.findFirstOrThrow({ select: { id: true } });
  return handle
    .selectFrom("Tenant")
    .select(["id", "createdAt", sql<bigint>`42::int8`.as("big")])
    .where("id", "=", t.id)
    .executeTakeFirstOrThrow();
}

describe("the typed SQL layer", () => {
  it("reads the same row the same way on the pool, a pg transaction and a use case's transaction", async () => {
    const onPool = await tenantRow(sqlPool());
    const onPg = await withPgTransaction((tx) => tenantRow(tx), LIMITS);
    const onUseCase = await transaction((tx) => tenantRow(sqlOf(tx)));
    expect(typeof onPool.big).toBe("bigint");
    expect(onPool.createdAt).toBeInstanceOf(Date);
    const prismaRow = await db().tenant.findUniqueOrThrow({ where: { id: onPool.id }, select: { createdAt: true } });
    expect(onPool.createdAt.toISOString()).toBe(prismaRow.createdAt.toISOString());
    expect(onPg).toEqual(onPool);
    expect(onUseCase).toEqual(onPool);
  });

  it("reports affected rows of a write on both kinds of transaction", async () => {
    const missing = randomUUID();
    const none = await transaction((tx) =>
      sqlOf(tx).updateTable("Tenant").set({ name: "x" }).where("id", "=", missing).executeTakeFirst(),
    );
    expect(none.numUpdatedRows).toBe(0n);
    const t = await db().tenant.findFirstOrThrow({ select: { id: true, name: true } });
    const one = await withPgTransaction(
      (tx) => tx.updateTable("Tenant").set({ name: t.name }).where("id", "=", t.id).executeTakeFirst(),
      LIMITS,
    );
    expect(one.numUpdatedRows).toBe(1n);
    const viaUseCase = await transaction((tx) =>
      sqlOf(tx).updateTable("Tenant").set({ name: t.name }).where("id", "=", t.id).executeTakeFirst(),
    );
    expect(viaUseCase.numUpdatedRows).toBe(1n);
    // A raw write (the `sql` tag) reports its count on both carriers too.
    const raw = sql`UPDATE "Tenant" SET "name" = ${t.name} WHERE "id" = ${t.id}::uuid`;
    expect((await raw.execute(sqlPool())).numAffectedRows).toBe(1n);
    expect((await transaction((tx) => raw.execute(sqlOf(tx)))).numAffectedRows).toBe(1n);
  });

  it("runs inside the use case's transaction: rolled back with it", async () => {
    const t = await db().tenant.findFirstOrThrow({ select: { id: true, name: true } });
    await expect(
      transaction(async (tx) => {
        await sqlOf(tx).updateTable("Tenant").set({ name: "rolled back" }).where("id", "=", t.id).execute();
        // The Prisma model API in the same transaction sees the layer's write …
        expect((await tx.tenant.findUniqueOrThrow({ where: { id: t.id } })).name).toBe("rolled back");
        throw new Error("stop");
      }),
    ).rejects.toThrow("stop");
    // … and nothing of it is left after the rollback.
    expect((await db().tenant.findUniqueOrThrow({ where: { id: t.id } })).name).toBe(t.name);
  });

  it("refuses to open a transaction of its own (statements never leave the caller's transaction)", async () => {
    let ran = false;
    const body = async () => {
      ran = true; // its statements would run outside any transaction, one by one
    };
    await expect(sqlPool().transaction().execute(body)).rejects.toThrow(/opens no transaction/);
    await expect(transaction((tx) => sqlOf(tx).transaction().execute(body))).rejects.toThrow(/opens no transaction/);
    expect(ran).toBe(false);
  });

  it("prepared() runs a named statement on pg; an unmarked one is not kept", async () => {
    const marker = `layer_${randomUUID().slice(0, 8)}`;
    const client = await pgPool().connect();
    try {
      const pinned = await import("@/lib/server/db/pg").then((m) => m.sqlOnConnection(client));
      await prepared(sql<{ m: string }>`SELECT ${marker}::text AS m, 'prepared' AS kind`).execute(pinned);
      await sql<{ m: string }>`SELECT ${marker}::text AS m, 'unnamed' AS kind`.execute(pinned);
      const { rows } = await client.query<{ statement: string }>(
        `SELECT statement FROM pg_prepared_statements WHERE statement LIKE '%prepared'' AS kind%' OR statement LIKE '%unnamed'' AS kind%'`,
      );
      expect(rows.map((r) => r.statement).filter((s) => !s.includes("pg_prepared_statements"))).toEqual([
        expect.stringContaining("'prepared' AS kind"),
      ]);
    } finally {
      client.release();
    }
  });
});
