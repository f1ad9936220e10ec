// docs/architecture.md ("Client views in parts"): no file in app/ or components/ runs over 200 lines, so a
// view is a hook for its data and URL state plus presentational parts, each with one job.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(__dirname, "..", "..");
const MAX_LINES = 200;

function files(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return files(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

/** Lines as `wc -l` counts them: a final newline does not open another line. */
const lineCount = (text: string) => (text.match(/\n/g)?.length ?? 0) + (text === "" || text.endsWith("\n") ? 0 : 1);

describe("client views in parts", () => {
  it("counts lines the way wc -l does", () => {
    expect(lineCount("")).toBe(0);
    expect(lineCount("a\n")).toBe(1);
    expect(lineCount("a\nb")).toBe(2);
  });

  it(`no file in app/ or components/ is over ${MAX_LINES} lines`, () => {
    const all = [...files("app"), ...files("components")];
    expect(all.length).toBeGreaterThan(50);
    const over = all
      .map((f) => ({ f, lines: lineCount(readFileSync(join(root, f), "utf8")) }))
      .filter((x) => x.lines > MAX_LINES)
      .map((x) => `${x.f}: ${x.lines}`);
    expect(over).toEqual([]);
  });
});
