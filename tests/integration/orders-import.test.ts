// `npm run orders:import` (docs/systems-of-record.md) against the real database: the script itself as a child
// process (exit code, refused line numbers on stderr, one outcome per line on stdout), then the use case for
// CSV, re-runs, updates, resume and another tenant's orders with the same numbers.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { orderCsvHeader } from "@/lib/domain/order-import-file";
import { randomUUID } from "node:crypto";
import { recordAuditEvent } from "@/lib/server/audit/record-event";
import { db } from "@/lib/server/db/client";
import { sqlOf } from "@/lib/server/db/sql";
import { transaction } from "@/lib/server/db/transaction";
import { importOrders, ImportRefused, stateFileOf, type LineOutcome } from "@/lib/server/orders/import-orders";
import { ES, US } from "./gateway-support";

const dir = mkdtempSync(join(tmpdir(), "orders-import-"));
let seq = 0;
const fresh = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++seq}`;
const file = (name: string, lines: string[]) => {
  const path = join(dir, `${fresh("f")}-${name}`);
  writeFileSync(path, lines.join("\n") + "\n");
  return path;
};

function line(number: string, over: Record<string, unknown> = {}, currency = "EUR") {
  return JSON.stringify({
    number,
    // Customer ids are global keys (upsert-order.ts): each shop its own.
    customer: { id: `cus_imp_${currency}_${number}`, email: "ana.garcia@example.com", name: "Ana García" },
    currency,
    total_minor: 4200,
    status: "paid",
    placed_at: "2026-11-30T10:00:00Z",
    payments: [
      {
        provider: "manual",
        reference: `pay_${number}`,
        method: "card",
        captured_minor: 4200,
        holder: "Ana García",
        display: "Visa •• 4242",
      },
    ],
    ...over,
  });
}
const csvRow = (number: string, captured = "4200") =>
  [
    number,
    `cus_imp_EUR_${number}`,
    "ana.garcia@example.com",
    '"García, Ana"',
    "EUR",
    "4200",
    "paid",
    "2026-11-30T10:00:00Z",
    "manual",
    `pay_${number}`,
    "card",
    captured,
    "Ana García",
    "Visa •• 4242",
  ].join(",");

const orderOf = async (slug: string, number: string) =>
  db().order.findFirst({
    where: { number, tenant: { slug } },
    select: { totalMinor: true, currency: true, customerId: true, tenantId: true },
  });

async function run(tenant: string, path: string, resume = false) {
  const outcomes: LineOutcome[] = [];
  const summary = await importOrders({ tenantSlug: tenant, file: path, resume, onLine: (o) => outcomes.push(o) });
  return { summary, outcomes };
}

/**
 * A test that runs the script as a child process: each run starts Node, tsx and the app's modules (≈ 10 s on a
 * quiet 2-core machine, 30 s and more on a loaded one, as seen in a CI run).
 */
const SCRIPT_TEST_MS = 240_000;

function script(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "scripts/orders-import.ts", ...args],
      {
        env: process.env,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += String(d)));
    child.stderr.on("data", (d) => (stderr += String(d)));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("orders:import", () => {
  it(
    "the script: good lines imported, a bad line named by number, exit 1; a re-run is all unchanged; another tenant's same numbers untouched",
    async () => {
      const [a, b, c] = [fresh("IMP"), fresh("IMP"), fresh("IMP")];
      // The other shop already has an order numbered like line 1's.
      const us = file("us.ndjson", [
        line(
          a,
          {
            total_minor: 9900,
            payments: [
              {
                provider: "manual",
                reference: `pay_us_${a}`,
                method: "card",
                captured_minor: 9900,
                holder: "Bob",
                display: "Visa •• 1111",
              },
            ],
          },
          "USD",
        ),
      ]);
      expect((await run(US, us)).summary.created).toBe(1);
      const usBefore = await orderOf(US, a);

      const path = file("es.ndjson", [line(a), "", line(b, { currency: "eur" }), "{not json", line(c)]);
      const first = await script(["--tenant", ES, path]);
      expect(first.code).toBe(1);
      expect(first.stderr).toContain("refused lines: 3, 4");
      const outcomes = first.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as LineOutcome);
      expect(outcomes.map((o) => [o.line, o.outcome])).toEqual([
        [1, "created"],
        [3, "refused"],
        [4, "refused"],
        [5, "created"],
      ]);
      expect(outcomes[1]).toMatchObject({
        number: b,
        code: "invalid_arguments",
        problems: [expect.objectContaining({ path: "$.currency" })],
      });
      expect(outcomes[2]).toMatchObject({ number: null, problems: [{ path: "$", message: "not JSON" }] });
      expect(await orderOf(ES, a)).toMatchObject({ totalMinor: 4200, currency: "EUR" });
      expect(await orderOf(ES, c)).toMatchObject({ totalMinor: 4200 });
      expect(await orderOf(ES, b)).toBeNull();
      expect(await orderOf(US, a)).toEqual(usBefore);

      // Audited with the operator as actor: one `orders:batch` event for the batch (it was `orders:upsert` per
      // line before the set-based import), its line range and the numbers of its accepted lines.
      const events = await db().auditEvent.findMany({
        where: { action: "orders:batch", actorId: "operator", tenantId: (await orderOf(ES, a))!.tenantId },
      });
      const mine = events.filter((e) => (e.data as { numbers: string }).numbers.includes(` ${a} `));
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ authMethod: "operator_cli", actorType: "system" });
      expect(mine[0]!.data).toMatchObject({ firstLine: 1, lastLine: 5, created: 2, refused: 0, setBased: 2 });
      expect((mine[0]!.data as { numbers: string }).numbers).toContain(` ${c} `);
      // The digest covers every line of the batch read (blank ones aside), refused ones included, with its number.
      const read = readFileSync(path, "utf8").split("\n").slice(0, 5);
      const digest = createHash("sha256");
      read.forEach((text, i) => text.trim() !== "" && digest.update(`${i + 1}\t${text.trim()}\n`));
      const hex = digest.digest("hex");
      expect((mine[0]!.data as { digest: string }).digest).toBe(`sha256:${hex.match(/.{8}/g)!.join(":")}`);

      const again = await run(ES, path);
      expect(again.outcomes.map((o) => o.outcome)).toEqual(["unchanged", "refused", "refused", "unchanged"]);
      expect(again.summary).toMatchObject({ created: 0, updated: 0, unchanged: 2, refused: [3, 4] });
      expect(await orderOf(US, a)).toEqual(usBefore);
    },
    SCRIPT_TEST_MS,
  );

  it(
    "the script exits 0 when every line is imported, 2 for an unknown tenant",
    async () => {
      const path = file("ok.ndjson", [line(fresh("IMP"))]);
      expect((await script(["--tenant", ES, path])).code).toBe(0);
      const unknown = await script(["--tenant", "no-such-shop", path]);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('No tenant with the slug "no-such-shop"');
    },
    SCRIPT_TEST_MS,
  );

  it(
    "values the database cannot hold refuse their own line by number; the other lines are imported, exit 1 not 2",
    async () => {
      const [a, b, c, d, e] = [fresh("IMP"), fresh("IMP"), fresh("IMP"), fresh("IMP"), fresh("IMP")];
      const path = file("edge.ndjson", [
        line(a),
        line(b, { total_minor: 2_147_483_648 }),
        line(c, { customer: { id: `cus_imp_EUR_${c}`, email: "ana.garcia@example.com", name: "Ana\u0000" } }),
        line(d, { placed_at: "0000-01-01T00:00:00Z" }),
        line(e),
      ]);
      const run = await script(["--tenant", ES, path]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("refused lines: 2, 3, 4");
      const outcomes = run.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as LineOutcome);
      expect(outcomes.map((o) => [o.line, o.outcome, o.outcome === "refused" ? o.problems[0]?.path : null])).toEqual([
        [1, "created", null],
        [2, "refused", "$.total_minor"],
        [3, "refused", "$.customer.name"],
        [4, "refused", "$.placed_at"],
        [5, "created", null],
      ]);
      expect(outcomes.filter((o) => o.outcome === "refused").every((o) => o.code === "invalid_arguments")).toBe(true);
      for (const n of [b, c, d]) expect(await orderOf(ES, n)).toBeNull();
      expect(await orderOf(ES, e)).toMatchObject({ totalMinor: 4200 });
    },
    SCRIPT_TEST_MS,
  );

  it("CSV with the documented header: one payment per row, quoted commas; a bad row refused by line number", async () => {
    const [a, b, c] = [fresh("CSV"), fresh("CSV"), fresh("CSV")];
    const path = file("orders.csv", [orderCsvHeader.join(","), csvRow(a), csvRow(b, "42.00"), csvRow(c)]);
    const { summary, outcomes } = await run(ES, path);
    expect(summary).toMatchObject({ format: "csv", created: 2, refused: [3] });
    expect(outcomes.find((o) => o.line === 3)).toMatchObject({
      outcome: "refused",
      problems: [expect.objectContaining({ path: "$.payments[0].captured_minor" })],
    });
    const stored = await db().customer.findFirstOrThrow({ where: { id: `cus_imp_EUR_${a}` } });
    expect(stored.name).toBe("García, Ana");
    expect((await run(ES, path)).outcomes.map((o) => o.outcome)).toEqual(["unchanged", "refused", "unchanged"]);

    const wrongHeader = file("wrong.csv", [[...orderCsvHeader].reverse().join(","), csvRow(fresh("CSV"))]);
    await expect(run(ES, wrongHeader)).rejects.toBeInstanceOf(ImportRefused);
  }, 60_000);

  it("a changed line is updated; the same order number in another tenant is not", async () => {
    const n = fresh("UPD");
    await run(US, file("us.ndjson", [line(n, {}, "USD")]));
    await run(ES, file("v1.ndjson", [line(n)]));
    const { outcomes } = await run(ES, file("v2.ndjson", [line(n, { total_minor: 5000 })]));
    expect(outcomes[0]!.outcome).toBe("updated");
    expect(await orderOf(ES, n)).toMatchObject({ totalMinor: 5000 });
    expect(await orderOf(US, n)).toMatchObject({ totalMinor: 4200, currency: "USD" });
  });

  it("--resume starts after the last line the state file records; a state file of another tenant is refused", async () => {
    const numbers = [fresh("RES"), fresh("RES"), fresh("RES")];
    const path = file(
      "resume.ndjson",
      numbers.map((n) => line(n)),
    );
    // As if a run had stopped after line 1.
    writeFileSync(stateFileOf(path), JSON.stringify({ tenant: ES, size: readFileSync(path).length, doneThrough: 1 }));
    const resumed = await run(ES, path, true);
    expect(resumed.summary).toMatchObject({ skipped: 1, read: 2, created: 2 });
    expect(resumed.outcomes.map((o) => o.line)).toEqual([2, 3]);
    expect(await orderOf(ES, numbers[0]!)).toBeNull();
    expect(JSON.parse(readFileSync(stateFileOf(path), "utf8"))).toMatchObject({ doneThrough: 3 });
    expect((await run(ES, path, true)).summary).toMatchObject({ skipped: 3, read: 0 });
    // Without --resume every line is read again; the applied ones come back unchanged.
    expect((await run(ES, path)).outcomes.map((o) => o.outcome)).toEqual(["created", "unchanged", "unchanged"]);
    await expect(run(US, path, true)).rejects.toThrow(/belongs to tenant "tienda-es"/);
  });

  it.each([1, 2])(
    "a killed import (SIGKILL mid-run, --parallel %i) resumes from what it committed: no line applied twice, none skipped",
    async (parallel) => {
      const N = 3000;
      const numbers = Array.from({ length: N }, () => fresh("KIL"));
      const path = file(
        "killed.ndjson",
        numbers.map((n) => line(n)),
      );
      const state = stateFileOf(path);
      const child = spawn(
        process.execPath,
        [
          "--conditions=react-server",
          "--import",
          "tsx",
          "scripts/orders-import.ts",
          "--tenant",
          ES,
          "--batch",
          "20",
          "--parallel",
          String(parallel),
          path,
        ],
        { env: process.env, stdio: ["ignore", "ignore", "ignore"] },
      );
      const exited = new Promise((resolve) => child.on("exit", resolve));
      const doneThrough = () =>
        existsSync(state) ? (JSON.parse(readFileSync(state, "utf8")) as { doneThrough: number }).doneThrough : 0;
      while (doneThrough() < 200) await new Promise((r) => setTimeout(r, 10));
      child.kill("SIGKILL");
      await exited;
      const killedAt = doneThrough();
      expect(killedAt).toBeLessThan(N); // stopped mid-run

      // As if the stop had come between a batch's commit and its state write: the state file one batch behind.
      const saved = JSON.parse(readFileSync(state, "utf8")) as Record<string, unknown>;
      writeFileSync(state, JSON.stringify({ ...saved, doneThrough: killedAt - 20 }));
      const resumed = await run(ES, path, true);
      const tenantId = (await orderOf(ES, numbers[0]!))!.tenantId;
      const committed = await db().auditEvent.findMany({
        where: { tenantId, action: "orders:batch", data: { path: ["importId"], equals: saved.importId as string } },
        select: { data: true },
      });
      // The batches' line ranges tile 1..N exactly once.
      const ranges = committed
        .map((e) => e.data as { firstLine: number; lastLine: number })
        .sort((x, y) => x.firstLine - y.firstLine);
      expect(ranges[0]!.firstLine).toBe(1);
      ranges.forEach((r, i) => i > 0 && expect(r.firstLine).toBe(ranges[i - 1]!.lastLine + 1));
      expect(ranges.at(-1)!.lastLine).toBe(N);
      expect(resumed.summary.skipped).toBeGreaterThanOrEqual(killedAt);
      expect(resumed.summary).toMatchObject({ unchanged: 0, updated: 0, refused: [] });
      expect(resumed.summary.created).toBe(N - resumed.summary.skipped);
      expect(await db().order.count({ where: { tenantId, number: { in: numbers } } })).toBe(N);
      expect(existsSync(state) && JSON.parse(readFileSync(state, "utf8"))).toMatchObject({ doneThrough: N });
    },
    SCRIPT_TEST_MS,
  );

  it("--resume of a parallel run skips the watermark and every range committed beyond it, and nothing else", async () => {
    const numbers = Array.from({ length: 10 }, () => fresh("GAP"));
    const path = file(
      "gap.ndjson",
      numbers.map((n) => line(n)),
    );
    // As if lines 1–2 and 5–6 had committed (two lanes) and 3–4 had not when the run stopped; the audit log names
    // 8 as committed too (a stop between its commit and the state write).
    const importId = randomUUID();
    writeFileSync(
      stateFileOf(path),
      JSON.stringify({ tenant: ES, size: readFileSync(path).length, doneThrough: 2, importId, committed: [[5, 6]] }),
    );
    const tenantId = (await db().tenant.findUniqueOrThrow({ where: { slug: ES } })).id;
    await transaction((tx) =>
      recordAuditEvent(sqlOf(tx), {
        tenantId,
        traceId: `import-test-${importId}`,
        actor: { type: "system", id: "operator", authMethod: "operator_cli" },
        action: "orders:batch",
        outcome: "ok",
        data: { importId, firstLine: 8, lastLine: 8 },
        redaction: { clear: ["importId", "firstLine", "lastLine"] },
      }),
    );
    const outcomes: LineOutcome[] = [];
    const summary = await importOrders({
      tenantSlug: ES,
      file: path,
      resume: true,
      parallel: 2,
      batchLines: 1,
      onLine: (o) => outcomes.push(o),
    });
    expect(summary).toMatchObject({ skipped: 5, read: 5, created: 5 });
    expect(outcomes.map((o) => o.line)).toEqual([3, 4, 7, 9, 10]); // in line order, whatever lane finished first
    const created = await db().order.findMany({
      where: { tenantId, number: { in: numbers } },
      select: { number: true },
    });
    expect(created.map((o) => numbers.indexOf(o.number) + 1).sort((a, b) => a - b)).toEqual([3, 4, 7, 9, 10]);
    expect(JSON.parse(readFileSync(stateFileOf(path), "utf8"))).toEqual(
      expect.objectContaining({ doneThrough: 10, importId }),
    );
  });

  it("--parallel 2: an order number updated in many batches ends with its last line's values", async () => {
    const [x, y] = [fresh("PAR"), fresh("PAR")];
    // Batches of 2 lines: every other batch updates x or y (its total: the line number), the ones between are new
    // orders. The batches that update at lines 1, 9, 17… are held back 150 ms before they write: without the
    // rule, the next update of the same number (4 lines on) would overtake them on the second connection.
    const lines: string[] = [];
    const last = new Map<string, number>();
    for (let i = 0; i < 12; i++) {
      const n = i % 4 < 2 ? x : y;
      lines.push(line(n, { total_minor: 1000 + lines.length + 1 }), line(fresh("PAX")));
      last.set(n, 1000 + lines.length - 1);
      lines.push(line(fresh("PAX")), line(fresh("PAX")));
    }
    const outcomes: LineOutcome[] = [];
    const summary = await importOrders({
      tenantSlug: ES,
      file: file("parallel.ndjson", lines),
      parallel: 2,
      batchLines: 2,
      beforeWrite: (first) => (first % 8 === 1 ? new Promise((r) => setTimeout(r, 150)) : undefined),
      onLine: (o) => outcomes.push(o),
    });
    expect(summary.refused).toEqual([]);
    expect(outcomes.map((o) => o.line)).toEqual(lines.map((_, i) => i + 1)); // in line order
    expect(await orderOf(ES, x)).toMatchObject({ totalMinor: last.get(x) });
    expect(await orderOf(ES, y)).toMatchObject({ totalMinor: last.get(y) });
  });
});
