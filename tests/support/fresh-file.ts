// The unit and integration projects run many files in one reused worker process (isolate: false in
// vitest.config.ts): a fresh process per file cost ~40 s of the unit project's ~55 s and ~200 s of the integration
// project's ~520 s. Before each file, this setup file puts back what a fresh process would give it: the environment
// as the worker started, a fresh module registry (every source module is evaluated again, so no cached config or
// singleton crosses from one file to the next; node_modules stay loaded), real timers, and no stubs or spies. What
// lives on globalThis (the database handles) is closed after each integration file by database-per-file.ts
// (process-resources.ts). tests/support/fresh-file.test.ts proves each part.
import { vi } from "vitest";

const worker = globalThis as unknown as { __envAtWorkerStart?: Readonly<Record<string, string | undefined>> };

/** Puts process.env back to what it was when the worker started: variables added since are removed. */
export function restoreEnvironment(): void {
  worker.__envAtWorkerStart ??= { ...process.env };
  const atStart = worker.__envAtWorkerStart;
  for (const key of Object.keys(process.env)) if (!(key in atStart)) delete process.env[key];
  Object.assign(process.env, atStart);
}

/** What a test file finds in a fresh process (run before each file). */
export function freshFile(): void {
  restoreEnvironment();
  vi.useRealTimers();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.resetModules();
}

freshFile();
