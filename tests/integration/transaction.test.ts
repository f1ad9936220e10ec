// The one transaction manager (lib/server/db/transaction.ts): a use case's Prisma model calls and its
// statements of the typed SQL layer (sqlOf(tx)) are one pg transaction on one connection of the app's pool —
// each sees the other's writes, no other connection sees them before COMMIT, a throw rolls back both, Prisma's
// own BEGIN/COMMIT are only a savepoint of it, a transaction client kept past its end is refused, and the
// limits (statement timeout, deadline) hold for both.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { onPgTransaction, sqlPool, withPgTransaction } from "@/lib/server/db/pg";
import { sqlOf } from "@/lib/server/db/sql";
import { ormOn, transaction } from "@/lib/server/db/transaction";
import type { Tx } from "@/lib/server/db/client";

const LIMITS = { maxWait: 5_000, timeout: 10_000 };

async function someTenant() {
  return db().tenant.findFirstOrThrow({ select: { id: true, name: true }, orderBy: { slug: "asc" } });
}

const nameSeenOutside = async (id: string) =>
  (await sqlPool().selectFrom("Tenant").select("name").where("id", "=", id).executeTakeFirstOrThrow()).name;

describe("transaction(): Prisma's model API and the typed SQL layer in one pg transaction", () => {
  it("runs both in one transaction, each seeing the other's uncommitted writes, nobody else seeing them", async () => {
    const t = await someTenant();
    const marker = `tx-${randomUUID().slice(0, 8)}`;
    await transaction(async (tx) => {
      await tx.tenant.update({ where: { id: t.id }, data: { name: `${marker}-orm` } });
      expect(await sqlOf(tx).selectFrom("Tenant").select("name").where("id", "=", t.id).executeTakeFirst()).toEqual({
        name: `${marker}-orm`,
      });
      await sqlOf(tx)
        .updateTable("Tenant")
        .set({ name: `${marker}-sql` })
        .where("id", "=", t.id)
        .execute();
      expect((await tx.tenant.findUniqueOrThrow({ where: { id: t.id } })).name).toBe(`${marker}-sql`);
      expect(await nameSeenOutside(t.id)).toBe(t.name);
      await tx.tenant.update({ where: { id: t.id }, data: { name: t.name } });
    });
  });

  it("rolls back the model API's and the layer's writes together when the use case throws", async () => {
    const t = await someTenant();
    await expect(
      transaction(async (tx) => {
        await tx.tenant.update({ where: { id: t.id }, data: { name: "gone-orm" } });
        await sqlOf(tx).updateTable("Tenant").set({ timeZone: "Pacific/Apia" }).where("id", "=", t.id).execute();
        throw new Error("stop");
      }),
    ).rejects.toThrow("stop");
    const after = await db().tenant.findUniqueOrThrow({ where: { id: t.id } });
    expect(after.name).toBe(t.name);
    expect(after.timeZone).not.toBe("Pacific/Apia");
  });

  it("makes Prisma's COMMIT a savepoint: the pg transaction is still open, and still rolls back, after it", async () => {
    const t = await someTenant();
    await expect(
      onPgTransaction(async (open) => {
        await ormOn(open, (tx) => tx.tenant.update({ where: { id: t.id }, data: { name: "after-prisma-commit" } }));
        // Prisma has sent its COMMIT: had it reached the server as one, this write would be visible now.
        expect(await nameSeenOutside(t.id)).toBe(t.name);
        throw new Error("the outer transaction fails later");
      }, LIMITS),
    ).rejects.toThrow("the outer transaction fails later");
    expect(await nameSeenOutside(t.id)).toBe(t.name);
  });

  it("keeps concurrent use cases apart: each sees only its own write", async () => {
    const tenants = await db().tenant.findMany({ select: { id: true, name: true }, take: 2, orderBy: { slug: "asc" } });
    expect(tenants.length).toBe(2);
    const seen = await Promise.all(
      tenants.map((t, i) =>
        transaction(async (tx) => {
          await tx.tenant.update({ where: { id: t.id }, data: { name: `parallel-${i}` } });
          await new Promise((r) => setTimeout(r, 50));
          const names = await Promise.all(tenants.map((o) => tx.tenant.findUniqueOrThrow({ where: { id: o.id } })));
          await tx.tenant.update({ where: { id: t.id }, data: { name: t.name } });
          return names.map((n) => n.name);
        }),
      ),
    );
    expect(seen[0]).toEqual(["parallel-0", tenants[1]!.name]);
    expect(seen[1]).toEqual([tenants[0]!.name, "parallel-1"]);
  });

  it("refuses a transaction client and its Sql handle once the transaction is over", async () => {
    let kept: Tx | null = null;
    await transaction(async (tx) => {
      kept = tx;
    });
    await expect(kept!.tenant.findFirst()).rejects.toThrow(/Transaction already closed|closed/);
    await expect(sqlOf(kept!).selectFrom("Tenant").select("id").execute()).rejects.toThrow(/already finished/);
  });

  it("has no Sql handle for a Prisma client that is not a transaction of this manager", () => {
    expect(() => sqlOf(db())).toThrow(/not a transaction opened by transaction\(\)/);
  });

  it("holds the statement timeout for the model API's statements too, and rolls the transaction back", async () => {
    const [t, other] = await db().tenant.findMany({
      select: { id: true, name: true },
      take: 2,
      orderBy: { slug: "asc" },
    });
    // Another transaction holds the second tenant's row; the model API's UPDATE of it waits for the lock.
    let holding!: () => void;
    let release!: () => void;
    const held = new Promise<void>((r) => (holding = r));
    const holder = withPgTransaction(async (sql) => {
      await sql.selectFrom("Tenant").select("id").where("id", "=", other!.id).forUpdate().execute();
      holding();
      await new Promise<void>((r) => (release = r));
    }, LIMITS);
    await held;
    const started = Date.now();
    try {
      await expect(
        transaction(
          async (tx) => {
            await tx.tenant.update({ where: { id: t!.id }, data: { name: "timed-out" } });
            await tx.tenant.update({ where: { id: other!.id }, data: { name: "never" } });
          },
          { timeout: 400 },
        ),
      ).rejects.toThrow();
    } finally {
      release();
      await holder;
    }
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await nameSeenOutside(t!.id)).toBe(t!.name);
    expect(await nameSeenOutside(other!.id)).toBe(other!.name);
  });
});
