// prisma/schema.prisma and prisma/migrations must describe the same database: the app's types (Prisma's client,
// the Kysely rows) come from the schema, while every real database is made by the migrations. The schema engine
// (WebAssembly, scripts/lib/schema-engine.ts — what `npm run db:migration:create` uses) replays the migrations on
// a shadow database of the test server and diffs the result against the schema: it must find nothing to do.
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { diffMigrationsToSchema } from "../../scripts/lib/schema-engine";

describe("schema and migrations", () => {
  it("the migrations build exactly the database prisma/schema.prisma describes (no drift)", async () => {
    const sql = await diffMigrationsToSchema(inject("serverUrl"), join(process.cwd(), "prisma", "schema.prisma"));
    const statements = sql
      .split("\n")
      .filter((line) => line.trim() !== "" && !line.trim().startsWith("--"))
      .join("\n");
    expect(statements, `the schema and the migrations differ; run npm run db:migration:create -- <name>:\n${sql}`).toBe(
      "",
    );
  }, 120_000);
});
