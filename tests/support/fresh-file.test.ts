// The unit project's files share worker processes (isolate: false); fresh-file.ts must hand each file a clean
// process state. Each case changes what a previous file could have left behind, runs freshFile() as the next
// file's setup does, and checks that nothing of it remains.
import { afterEach, describe, expect, it, vi } from "vitest";
import { freshFile } from "./fresh-file";

afterEach(() => freshFile());

describe("freshFile: what one file leaves behind, the next does not see", () => {
  it("a variable the file set is removed, one it changed or deleted is put back", () => {
    const kept = Object.keys(process.env)[0]!;
    const value = process.env[kept];
    process.env.FRESH_FILE_PROBE = "left over";
    process.env[kept] = "changed";
    freshFile();
    expect(process.env.FRESH_FILE_PROBE).toBeUndefined();
    expect(process.env[kept]).toBe(value);
    delete process.env[kept];
    freshFile();
    expect(process.env[kept]).toBe(value);
  });

  it("source modules are evaluated again (a module-level cache starts empty)", async () => {
    const first = await import("@/lib/server/env");
    freshFile();
    const second = await import("@/lib/server/env");
    expect(second).not.toBe(first);
  });

  it("fake timers, stubbed globals and spies are undone", () => {
    vi.useFakeTimers();
    vi.stubGlobal("fetch", () => "stubbed");
    const spy = vi.spyOn(Math, "random").mockReturnValue(0.5);
    freshFile();
    expect(vi.isFakeTimers()).toBe(false);
    expect(globalThis.fetch).not.toBeTypeOf("undefined");
    expect(String(globalThis.fetch)).not.toContain("stubbed");
    expect(Math.random).not.toBe(spy);
  });
});
