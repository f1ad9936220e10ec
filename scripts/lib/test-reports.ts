// Reads the JSON reports of vitest and Playwright into counts and one line per failed test (scripts/test.ts
// prints those lines again at the end of `npm test`: CI keeps only the tail of a long run), and into the
// seconds each test file took (the slowest are printed at the end and kept in test-results/timings.json).

export type TestReport = { passed: number; failed: number; skipped: number; failures: string[] };

// eslint-disable-next-line no-control-regex -- the runners colour their messages
const COLOUR = /\u001b\[[0-9;]*m/g;
/** The first non-empty line of an error message, without colour codes, at most 300 characters. */
export function firstLine(text: string | undefined): string {
  const line =
    (text ?? "")
      .replace(COLOUR, "")
      .split("\n")
      .find((l) => l.trim()) ?? "";
  return line.trim().slice(0, 300);
}

/** `:LINE` of the first stack frame in the test file itself (the failing assertion), or "" when there is none. */
function lineIn(message: string | undefined, file: string): string {
  const text = (message ?? "").replace(COLOUR, "");
  const at = text.indexOf(`${file}:`);
  if (at < 0) return "";
  const line = /^:(\d+)/.exec(text.slice(at + file.length))?.[1];
  return line ? `:${line}` : "";
}

export type VitestJson = {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults?: {
    name: string;
    status: string;
    message?: string;
    /** Epoch ms: the start of the file's first test and the end of its last (imports, setup files excluded). */
    startTime?: number;
    endTime?: number;
    assertionResults?: { fullName: string; status: string; failureMessages?: string[] }[];
  }[];
};

export function readVitestReport(r: VitestJson, label: string, root: string): TestReport {
  const out: TestReport = {
    passed: r.numPassedTests,
    failed: r.numFailedTests,
    skipped: r.numPendingTests + r.numTodoTests,
    failures: [],
  };
  for (const file of r.testResults ?? []) {
    const where = file.name.startsWith(`${root}/`) ? file.name.slice(root.length + 1) : file.name;
    const failed = (file.assertionResults ?? []).filter((t) => t.status === "failed");
    for (const t of failed)
      out.failures.push(
        `${label} › ${where}${lineIn(t.failureMessages?.[0], file.name)} › ${t.fullName} — ${firstLine(t.failureMessages?.[0])}`,
      );
    // A file that failed before any of its tests ran (an import error, a failing beforeAll hook) reports no
    // failed test: it is one failure all the same.
    if (file.status === "failed" && failed.length === 0) {
      out.failed += 1;
      out.failures.push(`${label} › ${where} — ${firstLine(file.message)}`);
    }
  }
  return out;
}

type PlaywrightSuite = {
  title: string;
  specs?: {
    title: string;
    file: string;
    line: number;
    tests: {
      status: string;
      projectName: string;
      results: { duration?: number; error?: { message?: string } }[];
    }[];
  }[];
  suites?: PlaywrightSuite[];
};
export type PlaywrightJson = {
  stats: { expected: number; unexpected: number; flaky: number; skipped: number };
  suites?: PlaywrightSuite[];
  errors?: { message?: string }[];
};

export function readPlaywrightReport(r: PlaywrightJson): TestReport {
  const out: TestReport = {
    passed: r.stats.expected + r.stats.flaky,
    failed: r.stats.unexpected,
    skipped: r.stats.skipped,
    failures: [],
  };
  // Top-level suites are files; nested ones are describe() blocks, whose titles lead the test's name.
  const walk = (suite: PlaywrightSuite, describes: string[]) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests.filter((t) => t.status === "unexpected")) {
        const error = t.results.map((res) => res.error?.message).find(Boolean);
        const title = [...describes, spec.title].join(" › ");
        out.failures.push(`browser [${t.projectName}] › ${spec.file}:${spec.line} › ${title} — ${firstLine(error)}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...describes, child.title]);
  };
  for (const file of r.suites ?? []) walk(file, []);
  // Errors outside any test (the web server did not start, a global setup threw) fail the run too.
  for (const e of r.errors ?? []) {
    out.failed += 1;
    out.failures.push(`browser — ${firstLine(e.message)}`);
  }
  return out;
}

/** One test file's wall time in one run: `runner` names the run (vitest, vitest on PostgreSQL 15, browser). */
export type FileTime = { runner: string; file: string; seconds: number };

const seconds = (ms: number) => Math.round(ms / 100) / 10;

/** Per file, from its first test's start to its last test's end, path relative to the repository. */
export function vitestFileTimes(r: VitestJson, runner: string, root: string): FileTime[] {
  return (r.testResults ?? [])
    .filter((f) => typeof f.startTime === "number" && typeof f.endTime === "number")
    .map((f) => ({
      runner,
      file: f.name.startsWith(`${root}/`) ? f.name.slice(root.length + 1) : f.name,
      seconds: seconds(f.endTime! - f.startTime!),
    }));
}

/** Per spec file, the sum of every attempt of every test in it (one worker: the sum is the file's share). */
export function playwrightFileTimes(r: PlaywrightJson, dir = "e2e"): FileTime[] {
  const ms = new Map<string, number>();
  const walk = (suite: PlaywrightSuite) => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests)
        for (const res of t.results) ms.set(spec.file, (ms.get(spec.file) ?? 0) + (res.duration ?? 0));
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const file of r.suites ?? []) walk(file);
  return [...ms].map(([file, total]) => ({ runner: "browser", file: `${dir}/${file}`, seconds: seconds(total) }));
}

/** The `n` slowest files, slowest first (ties by name, so the list is stable). */
export function slowestFiles(files: FileTime[], n = 15): FileTime[] {
  return [...files]
    .sort((a, b) => b.seconds - a.seconds || a.file.localeCompare(b.file) || a.runner.localeCompare(b.runner))
    .slice(0, n);
}

export type Phase = { name: string; seconds: number };
export type Timings = {
  /** Seconds from the first phase of .ci/run (or the start of npm test) to the end of npm test. */
  total: number;
  budget: number;
  /** .ci/run's own phases (apt-get installs, npm ci), when npm test ran under it. */
  ci: Phase[];
  /** npm test's steps, in the order they ran. */
  steps: Phase[];
  slowest: FileTime[];
  files: FileTime[];
};

/** The whole run's budget on the 2-core CI machine (docs/testing.md): past it, npm test warns. */
export const RUN_BUDGET_SECONDS = 1_800;

/** .ci/run's phases file (`{"phases": [{"name", "seconds"}]}`); anything else is no phases, never a crash. */
export function readCiPhases(text: string | undefined): Phase[] {
  if (!text) return [];
  try {
    const phases = (JSON.parse(text) as { phases?: unknown }).phases;
    if (!Array.isArray(phases)) return [];
    return phases.filter(
      (p): p is Phase =>
        typeof p === "object" &&
        p !== null &&
        typeof (p as Phase).name === "string" &&
        typeof (p as Phase).seconds === "number",
    );
  } catch {
    return [];
  }
}

export function summariseTimings(ci: Phase[], steps: Phase[], files: FileTime[], npmTestSeconds: number): Timings {
  const total = seconds((ci.reduce((sum, p) => sum + p.seconds, 0) + npmTestSeconds) * 1000);
  return { total, budget: RUN_BUDGET_SECONDS, ci, steps, slowest: slowestFiles(files), files };
}

/** The lines npm test prints about time before its last line; the budget warning when the run outgrew it. */
export function timingLines(t: Timings): string[] {
  const lines = ["Slowest test files (seconds):"];
  for (const f of t.slowest)
    lines.push(`  ${f.seconds.toFixed(1).padStart(7)}  ${f.file}${f.runner === "vitest" ? "" : ` (${f.runner})`}`);
  lines.push("Time per step (seconds):");
  for (const p of [...t.ci.map((p) => ({ ...p, name: `ci: ${p.name}` })), ...t.steps])
    lines.push(`  ${p.seconds.toFixed(1).padStart(7)}  ${p.name}`);
  lines.push(`  ${t.total.toFixed(1).padStart(7)}  total (test-results/timings.json)`);
  if (t.total > t.budget)
    lines.push(
      `warning: the run took ${t.total.toFixed(1)} s, over its budget of ${t.budget} s: see docs/testing.md "When a step outgrows its budget"`,
    );
  return lines;
}
