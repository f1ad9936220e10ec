// Integration files share worker processes (isolate: false); each must reach its own database. After
// releaseDatabaseHandles() (database-per-file.ts runs it after every file), a file on another database finds db(),
// sqlPool() and the realtime feed connected there, not to the database of the file before it.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/server/db/client";
import { sqlPool } from "@/lib/server/db/pg";
import { sql } from "@/lib/server/db/sql";
import { withPgClient } from "@/lib/server/db/pg-client";
import { proposalChangesReady } from "@/lib/server/realtime/proposal-changes";
import { releaseDatabaseHandles } from "../support/process-resources";

const serverUrl = inject("serverUrl");
const thisFile = process.env.DATABASE_URL!;
const next = `t_next_${randomUUID().replace(/-/g, "").slice(0, 12)}`;

const own = new URL(thisFile).pathname.slice(1);
const nextUrl = () => thisFile.replace(/\/[^/?]+(\?|$)/, `/${next}$1`);
// Prisma's model API says which database it reached by a row that differs: the next database renames a tenant.
const marker = `renamed in ${next}`;
const viaPrisma = async () =>
  (await db().tenant.findUniqueOrThrow({ where: { slug: "shop-us" }, select: { name: true } })).name;
// The realtime feed's LISTEN connection says where it is through the server's own view of its sessions.
const listenersOn = async (database: string) =>
  withPgClient(serverUrl, async (c) =>
    Number(
      (
        await c.query(
          `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND query = 'LISTEN proposal_changes'`,
          [database],
        )
      ).rows[0].n,
    ),
  );
const viaSql = async () =>
  (await sql<{ name: string }>`SELECT current_database() AS name`.execute(sqlPool())).rows[0]!.name;

beforeAll(async () => {
  await withPgClient(serverUrl, (c) => c.query(`CREATE DATABASE "${next}" TEMPLATE template_app`));
  await withPgClient(nextUrl(), (c) => c.query(`UPDATE "Tenant" SET name = $1 WHERE slug = 'shop-us'`, [marker]));
});

afterAll(async () => {
  await releaseDatabaseHandles();
  process.env.DATABASE_URL = thisFile;
  await withPgClient(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${next}" WITH (FORCE)`));
});

describe("a worker process moving on to the next file's database", () => {
  it("after the release, Prisma and the SQL layer connect to the next database, not to the one before", async () => {
    expect(await viaSql()).toBe(own); // the SQL layer alone opens the pool (no Prisma client yet)
    expect(await viaPrisma()).not.toBe(marker);

    await releaseDatabaseHandles();
    process.env.DATABASE_URL = nextUrl();
    expect(await viaSql()).toBe(next);
    expect(await viaPrisma()).toBe(marker);
  });

  it("a file that used only the SQL layer leaves no pool behind for the next one", async () => {
    await releaseDatabaseHandles();
    process.env.DATABASE_URL = thisFile;
    expect(await viaSql()).toBe(own);
    await releaseDatabaseHandles();
    process.env.DATABASE_URL = nextUrl();
    expect(await viaPrisma()).toBe(marker);
  });

  it("after the release, the realtime feed listens on the next database, and nothing listens on the one before", async () => {
    await releaseDatabaseHandles();
    process.env.DATABASE_URL = thisFile;
    await proposalChangesReady();
    expect(await listenersOn(own)).toBe(1);

    await releaseDatabaseHandles();
    process.env.DATABASE_URL = nextUrl();
    await proposalChangesReady();
    expect(await listenersOn(next)).toBe(1);
    await expect.poll(() => listenersOn(own)).toBe(0);
  });
});
