// Reads the JSON reports of vitest and Playwright into counts and one line per failed test (scripts/test.ts
// prints those lines again at the end of `npm test`: CI keeps only the tail of a long run).

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
    tests: { status: string; projectName: string; results: { error?: { message?: string } }[] }[];
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
