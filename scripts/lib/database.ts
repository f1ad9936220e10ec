// Resolves the database the product runs on: DATABASE_URL when given, else the embedded PostgreSQL
// kept in .data/pg between runs. Then applies migrations and, in demo mode, the demo data.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmbeddedPostgres, type EmbeddedServer } from "./embedded-postgres";
import { applyMigrations } from "./migrations";
import { seedDemo } from "./demo-data";
import { prismaFor } from "./prisma";

export type PreparedDatabase = { url: string; embedded: EmbeddedServer | null; applied: string[]; seeded: boolean };

export async function prepareDatabase(opts: { demo: boolean; log?: (msg: string) => void }): Promise<PreparedDatabase> {
  const say = opts.log ?? (() => undefined);
  let embedded: EmbeddedServer | null = null;
  let url = process.env.DATABASE_URL ?? "";
  if (!url) {
    // EMBEDDED_PG_EPHEMERAL=1 (the browser tests): a throw-away server in a temporary folder on a free port.
    const ephemeral = process.env.EMBEDDED_PG_EPHEMERAL === "1";
    const dataDir = ephemeral
      ? mkdtempSync(join(tmpdir(), "app-pg-"))
      : (process.env.EMBEDDED_PG_DIR ?? join(process.cwd(), ".data", "pg"));
    // EMBEDDED_PG_PORT: that port or a refusal naming it; unset: 54329, or a free port when another
    // instance already listens there.
    const explicit = process.env.EMBEDDED_PG_PORT ? Number(process.env.EMBEDDED_PG_PORT) : undefined;
    say(`starting embedded PostgreSQL (${dataDir})`);
    embedded = await startEmbeddedPostgres({
      dataDir,
      port: explicit,
      preferredPort: ephemeral ? undefined : 54329,
      portVariable: "EMBEDDED_PG_PORT",
      ephemeral,
    });
    say(`embedded PostgreSQL on port ${embedded.port}`);
    url = embedded.url;
  }
  try {
    const { applied } = await applyMigrations(url);
    say(applied.length ? `applied migrations: ${applied.join(", ")}` : "migrations: up to date");
    let seeded = false;
    if (opts.demo) {
      const prisma = prismaFor(url);
      try {
        seeded = (await seedDemo(prisma)).seeded;
        if (seeded) await (await import("./demo-declared-actions")).declareDemoActions(prisma);
      } finally {
        await prisma.$disconnect();
      }
      say(seeded ? "demo data loaded" : "demo data: already present");
    }
    return { url, embedded, applied, seeded };
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
}
