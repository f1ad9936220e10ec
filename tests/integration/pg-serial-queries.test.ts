// node-postgres deprecates a query sent while its client is busy (an error in pg 9), and Prisma's adapter does
// exactly that with a transaction's independent reads. The pool's SerialQueryClient (lib/server/db/pg.ts)
// runs them one after another instead. Each case runs in its own process: pg warns once per process.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);

async function child(mode: "serial" | "plain") {
  const { stdout } = await run(
    process.execPath,
    ["--import", "tsx", "tests/support/concurrent-queries-child.ts", mode],
    {
      env: { ...process.env, NODE_OPTIONS: "" },
      timeout: 60_000,
    },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as { warnings: string[]; counts: number[]; finished: string[] };
}

describe("one query at a time on a pg client", () => {
  it("the app's client: a transaction's concurrent reads give no deprecation warning, and queries finish in call order", async () => {
    const out = await child("serial");
    expect(out.warnings).toEqual([]);
    expect(out.counts).toHaveLength(4);
    expect(out.counts[0]).toBeGreaterThan(0);
    expect(out.counts[3]).toBe(out.counts[0]);
    expect(out.finished).toEqual(["slow", "failed: division by zero", "n=3"]);
  });

  it("control: a plain pg client warns for the same transaction (so the check above can fail)", async () => {
    const out = await child("plain");
    expect(out.warnings.some((w) => w.includes("already executing a query"))).toBe(true);
  });
});
