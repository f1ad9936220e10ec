// Structural rules of docs/architecture.md, checked over the source tree: they go red when someone
// imports the data layer into client code, queries Prisma from a page, opens a transaction or runs raw SQL
// around the data layer, or spells a proposal status outside lib/domain/proposal-state.ts.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(__dirname, "..", "..");

function files(dir: string, withTests = false): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (name === "node_modules" || name === "generated") return [];
    if (statSync(join(root, path)).isDirectory()) return files(path, withTests);
    return /\.(ts|tsx)$/.test(name) && (withTests || !/\.test\.tsx?$/.test(name)) ? [path] : [];
  });
}
const read = (path: string) => readFileSync(join(root, path), "utf8");
/** Code without comments (line and block), so documentation may still name things. */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:])\/\/.*$/gm, "$1");

describe("layer boundaries", () => {
  it("client code (components, lib/queries, 'use client' files) imports nothing from lib/server", () => {
    const client = [
      ...files("components"),
      ...files("lib/queries"),
      ...files("app").filter((f) => /^\s*["']use client["']/.test(read(f))),
    ];
    expect(client.length).toBeGreaterThan(10);
    expect(client.filter((f) => /from\s+["']@\/lib\/server\//.test(read(f)))).toEqual([]);
  });

  it("no Prisma outside lib/server and scripts: pages and components call use cases", () => {
    const outside = [
      ...files("app"),
      ...files("components"),
      ...files("lib/queries"),
      ...files("lib/schemas"),
      ...files("lib/domain"),
    ];
    expect(outside.filter((f) => /db\(\)|generated\/client|@prisma\//.test(code(read(f))))).toEqual([]);
  });

  it("the app imports nothing from the sandboxes: they are separate programs (provider-sandbox/, shop-sandbox/)", () => {
    const app = [...files("app"), ...files("components"), ...files("lib")];
    expect(app.length).toBeGreaterThan(50);
    expect(app.filter((f) => /from\s+["'](@\/|(\.\.\/)+)(provider|shop)-sandbox\//.test(code(read(f))))).toEqual([]);
  });

  it("each sandbox stands for an outside system: it imports nothing of the product (lib/, app/, components/) nor the other sandbox", () => {
    for (const [dir, other] of [
      ["provider-sandbox", "shop-sandbox"],
      ["shop-sandbox", "provider-sandbox"],
    ] as const) {
      const own = files(dir);
      expect(own.length).toBeGreaterThan(3);
      const product = new RegExp(`from\\s+["'](@\\/|(\\.\\.\\/)+)(lib|app|components|${other})\\/`);
      expect(own.filter((f) => product.test(code(read(f))))).toEqual([]);
    }
  });

  it("one transaction manager and one SQL layer: no $transaction, raw Prisma SQL or pg client outside lib/server/db", () => {
    const app = [...files("app"), ...files("components"), ...files("lib")].filter(
      (f) => !f.startsWith("lib/server/db/"),
    );
    expect(app.length).toBeGreaterThan(50);
    // Transactions come from transaction() / withPgTransaction (lib/server/db); statements Prisma's model API
    // cannot say go through the typed SQL layer; connections of the app's own come from lib/server/db/pg.ts.
    const outside = /\$transaction\b|\$(queryRaw|executeRaw)(Unsafe)?\b|new\s+(pg\.)?(Client|Pool)\(/;
    expect(app.filter((f) => outside.test(code(read(f))))).toEqual([]);
  });

  it("no raw Prisma SQL and no pg client of its own anywhere else either: tests, specs, scripts, benches", () => {
    const everywhere = [
      "app",
      "components",
      "lib",
      "tests",
      "e2e",
      "scripts",
      "bench",
      "provider-sandbox",
      "shop-sandbox",
      "examples",
    ]
      .flatMap((dir) => files(dir, true))
      .filter((f) => !f.startsWith("lib/server/db/") && f !== "lib/domain/boundaries.test.ts");
    expect(everywhere.length).toBeGreaterThan(300);
    // Statements go through the typed SQL layer (sqlPool(), a transaction's handle); pg clients of scripts,
    // tests and benches come from lib/server/db/pg-client.ts.
    const outside = /\$(queryRaw|executeRaw)(Unsafe)?\b|new\s+(pg\.)?Client\(/;
    expect(everywhere.filter((f) => outside.test(code(read(f))))).toEqual([]);
  });

  it('one lock order: row locks only where docs/architecture.md "Locks" lists them (the order before its proposals)', () => {
    // A proposal is row-locked only through lib/server/proposals/locks.ts, which locks its order first; the other
    // row locks lock an order (first thing in their transaction) or a tenant, or skip what is locked (the sweep).
    // A new path that row-locks something lands here: take the locks through locks.ts, or add it with its reason.
    const allowed = [
      "lib/server/proposals/locks.ts", // order, then proposal: lockOrder, lockOrderThenProposal, lockOrderOfExecution
      "lib/actions/refund/prepare-refund.ts", // the order, first
      "lib/actions/address-change/prepare.ts", // the order, first (its pending proposals are read under that lock)
      "lib/actions/cancel-order/prepare.ts", // the order, first (its pending proposals are read under that lock)
      "lib/actions/contact-change/prepare.ts", // the customer, first and alone (no order; its pending proposals after)
      "lib/actions/replacement-order/prepare.ts", // the order, first (its replacement proposals are read under that lock)
      "lib/actions/bulk-message/prepare.ts", // the segment's newest version, first and alone (no order; its pending proposal after)
      "lib/server/proposals/create-superseding-proposal.ts", // the order, already held by lockProposal
      "lib/server/proposals/expire-proposals.ts", // proposals with SKIP LOCKED: never waits, so never in a cycle
      "lib/server/admin/update-tenant-settings.ts", // the tenant row; no order or proposal in that transaction
      "lib/server/executions/record-manual-payout.ts", // the execution, after lockOrderOfExecution took its order
    ];
    const rowLock =
      /\bFOR\s+(NO\s+KEY\s+)?UPDATE\b|\bFOR\s+(KEY\s+)?SHARE\b|\.for(Update|NoKeyUpdate|Share|KeyShare)\(/;
    const app = [...files("app"), ...files("lib"), ...files("scripts")].filter((f) => !f.startsWith("lib/server/db/"));
    expect(app.filter((f) => rowLock.test(code(read(f))) && !allowed.includes(f))).toEqual([]);
    expect(allowed.filter((f) => !rowLock.test(code(read(f))))).toEqual([]);
  });

  it("proposal statuses are spelled only in lib/domain/proposal-state.ts", () => {
    const literal = /["'`](pending_approval|needs_reconciliation|executing|approved|invalidated)["'`]/;
    const sources = [...files("lib/server"), ...files("app")].filter(
      (f) => relative(root, join(root, f)) !== "lib/domain/proposal-state.ts",
    );
    expect(sources.filter((f) => literal.test(code(read(f))))).toEqual([]);
  });
});
