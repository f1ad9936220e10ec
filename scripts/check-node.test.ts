// `npm install` on an older Node: one line saying so (preinstall) instead of ~450 EBADENGINE warnings, which
// .npmrc silences (checked by hand: `npm install` on Node 20 in a scratch copy printed 452 lines, then 6).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(__dirname, "..");

describe("install on an older Node", () => {
  it(".npmrc hides npm's warnings, the preinstall says it in one line, and the install goes on", () => {
    expect(readFileSync(join(root, ".npmrc"), "utf8")).toMatch(/^loglevel=error$/m);
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
      engines: { node: string };
    };
    expect(pkg.scripts.preinstall).toBe("node scripts/check-node.mjs");
    expect(pkg.engines.node).toBe(">=24");
    // Exit 0 either way; on Node < 24 exactly one line on stderr naming the version and saying it is expected.
    const run = spawnSync(process.execPath, [join(root, "scripts/check-node.mjs")], { encoding: "utf8" });
    expect(run.status).toBe(0);
    const lines = run.stderr.split("\n").filter(Boolean);
    if (Number(process.versions.node.split(".")[0]) >= 24) expect(lines).toEqual([]);
    else {
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(process.version);
      expect(lines[0]).toContain("expected");
    }
  });
});
