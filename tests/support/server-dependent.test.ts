// The guard over tests/support/server-dependent.ts: every integration test file is placed, once, and every placed
// file exists. Without it a new file would silently run only on the embedded server, or a renamed one would drop
// out of the Debian run while its stale name stayed listed.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { serverDependent, serverDependentFiles, serverNeutral } from "./server-dependent";

const dir = join(__dirname, "..", "integration");
const onDisk = readdirSync(dir).filter((f) => f.endsWith(".test.ts"));

describe("integration files tagged server-dependent or server-neutral", () => {
  it("every integration test file is in one of the two lists", () => {
    const placed = new Set([...Object.keys(serverDependent), ...serverNeutral]);
    const unplaced = onDisk.filter((f) => !placed.has(f));
    expect(
      unplaced,
      "add each to tests/support/server-dependent.ts: serverDependent (with the reason) or serverNeutral",
    ).toEqual([]);
  });

  it("no file is in both lists, or twice in one", () => {
    const both = serverNeutral.filter((f) => Object.hasOwn(serverDependent, f));
    expect(both).toEqual([]);
    expect(serverNeutral.filter((f, i) => serverNeutral.indexOf(f) !== i)).toEqual([]);
  });

  it("every listed file exists (a renamed or deleted file leaves the lists too)", () => {
    const gone = [...Object.keys(serverDependent), ...serverNeutral].filter((f) => !onDisk.includes(f));
    expect(gone).toEqual([]);
  });

  it("each server-dependent file says why, and the Debian run gets exactly those paths", () => {
    for (const [file, reason] of Object.entries(serverDependent)) expect(reason.length, file).toBeGreaterThan(20);
    expect(serverDependentFiles()).toEqual(Object.keys(serverDependent).map((f) => `tests/integration/${f}`));
    expect(serverDependentFiles().length).toBeGreaterThan(0);
  });
});
