// npm test: every test, the way CI runs them.
//   0. lint (ESLint; any problem counts as a failure) and the format check (Prettier)
//   1. unit tests and integration tests (vitest; integration against a throw-away embedded PostgreSQL 18), then
//      the server-dependent integration tests (tests/support/server-dependent.ts) again on Debian's PostgreSQL
//      (a throw-away pg_createcluster cluster; skipped with a message when not root or the package is missing)
//      — the supported versions, docs/operations.md
//   2. a production build of the app (started beside step 1 at the lowest priority, `nice -n 19`: it takes only
//      the processor time the tests leave idle; its output is printed when it ends, after step 1)
//   3. browser tests (Playwright against that build, its own embedded PostgreSQL and demo data)
//   4. a shortened soak (npm run soak -- --seconds 40) on that build
// It provides its own browser: Playwright's where one is installed, else Debian's chromium (installed
// with apt-get when we are root and it is missing). Each step prints its wall time as it ends; at the end come
// the 15 slowest test files and the time per step (all of it in test-results/timings.json, with .ci/run's own
// phases when run under it; docs/testing.md), a warning when the run outgrew its budget, the failed tests, and
// last one line "Tests: N passed, N failed".
//   --skip-e2e       only steps 0 and 1
//   --skip-lint      skip step 0
//   --all-postgres   every integration file on Debian's PostgreSQL too, not only the server-dependent ones
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "@playwright/test";
import { serverDependentFiles } from "../tests/support/server-dependent";
import { createDebianCluster, debianPostgresUnavailable } from "./lib/debian-postgres";
import {
  playwrightFileTimes,
  readCiPhases,
  readPlaywrightReport,
  readVitestReport,
  summariseTimings,
  timingLines,
  vitestFileTimes,
  type FileTime,
  type Phase,
  type PlaywrightJson,
  type TestReport,
  type VitestJson,
} from "./lib/test-reports";

const args = process.argv.slice(2);
const skipE2e = args.includes("--skip-e2e");
const skipLint = args.includes("--skip-lint");
const allPostgres = args.includes("--all-postgres");
const started = performance.now();
const root = process.cwd();
const reports = join(root, "test-results");
// .ci/run's own phases (apt-get, npm ci), read now: Playwright empties test-results/ when it starts. Only under
// .ci/run (CI_PHASES_FILE): a file left by an earlier CI run must not count in a local one.
const ciPhaseFile = process.env.CI_PHASES_FILE;
const ciPhases = readCiPhases(ciPhaseFile && existsSync(ciPhaseFile) ? readFileSync(ciPhaseFile, "utf8") : undefined);
// Reports of an earlier run must not stand in for this one's (a runner killed before writing its own).
for (const f of ["vitest.json", "vitest-debian-pg.json", "playwright.json", "timings.json"])
  rmSync(join(reports, f), { force: true });
mkdirSync(reports, { recursive: true });
type Env = Record<string, string | undefined>;
const env: Env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
const node = process.execPath;

const steps: Phase[] = [];
const fileTimes: FileTime[] = [];
const secondsSince = (t: number) => Math.round((performance.now() - t) / 100) / 10;

const report = (label: string, seconds: number, code: number | null, signal: NodeJS.Signals | null) => {
  if (signal) console.log(`\n${label}: ended by ${signal}`);
  steps.push({ name: label, seconds });
  // The exit code, not "passed": a runner can exit 0 with failed tests (its report counts them, below).
  console.log(`\n=== ${label}: ${seconds.toFixed(1)} s (exit code ${code ?? signal}) ===`);
  return code ?? 1;
};

type Ended = { code: number | null; signal: NodeJS.Signals | null; seconds: number; output: string };

/** Runs a command to its end, its output straight through (`keep` false) or kept for later (`keep` true). */
function spawnStep(label: string, cmd: string, args: string[], extraEnv: Env, keep: boolean): Promise<Ended> {
  const t = performance.now();
  const child = spawn(cmd, args, {
    stdio: keep ? ["ignore", "pipe", "pipe"] : "inherit",
    env: { ...env, ...extraEnv } as NodeJS.ProcessEnv,
  });
  const output: Buffer[] = [];
  child.stdout?.on("data", (c: Buffer) => output.push(c));
  child.stderr?.on("data", (c: Buffer) => output.push(c));
  return new Promise<Ended>((resolve) => {
    const end = (code: number | null, signal: NodeJS.Signals | null) =>
      resolve({ code, signal, seconds: secondsSince(t), output: Buffer.concat(output).toString("utf8") });
    child.on("error", (e) => {
      const line = `${label}: could not run (${e.message})\n`;
      if (keep) output.push(Buffer.from(line));
      else console.log(`\n${line}`);
      end(1, null);
    });
    child.on("close", end);
  });
}

/** One step in the foreground: its output as it comes. */
async function run(label: string, argv: string[], extraEnv: Env = {}): Promise<number> {
  console.log(`\n=== ${label} ===`);
  const r = await spawnStep(label, node, argv, extraEnv, false);
  return report(label, r.seconds, r.code, r.signal);
}

type Beside = { label: string; done: Promise<Ended> };
const niceBinary = ["/usr/bin/nice", "/bin/nice"].find((p) => existsSync(p));

/**
 * A step started beside the foreground ones, at nice 19 (the whole process tree, threads included): it only takes
 * the processor time the foreground leaves idle and slows the foreground's tests by next to nothing. Its output
 * is kept and printed by finish(), so the two do not interleave.
 */
function runBeside(label: string, argv: string[]): Beside {
  console.log(`\n=== ${label}: started beside the next step${niceBinary ? " (nice -n 19)" : ""} ===`);
  const [cmd, args] = niceBinary ? [niceBinary, ["-n", "19", node, ...argv]] : [node, argv];
  return { label, done: spawnStep(label, cmd, args, {}, true) };
}

/** Waits for a step started beside the others, prints its output and its time, and returns its exit code. */
async function finish(beside: Beside): Promise<number> {
  const r = await beside.done;
  console.log(`\n=== ${beside.label} (its output, kept while it ran beside the other steps) ===`);
  process.stdout.write(r.output);
  return report(beside.label, r.seconds, r.code, r.signal);
}

function ensureBrowser(): boolean {
  if (process.env.PLAYWRIGHT_CHROMIUM_PATH && existsSync(process.env.PLAYWRIGHT_CHROMIUM_PATH)) return true;
  try {
    if (existsSync(chromium.executablePath())) {
      env.PLAYWRIGHT_USE_BUNDLED = "1";
      return true;
    }
  } catch {
    // no bundled browser
  }
  if (existsSync("/usr/bin/chromium")) return true;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (isRoot && existsSync("/usr/bin/apt-get")) {
    console.log("installing Debian's chromium for the browser tests (apt-get)");
    spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
    spawnSync("apt-get", ["install", "-y", "-qq", "chromium"], {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
    if (existsSync("/usr/bin/chromium")) return true;
  }
  const fetched = spawnSync(node, [join(root, "node_modules", "playwright", "cli.js"), "install", "chromium"], {
    stdio: "inherit",
  });
  if (fetched.status === 0) {
    env.PLAYWRIGHT_USE_BUNDLED = "1";
    return true;
  }
  console.error(
    "No browser for the browser tests. Install Playwright's (npx playwright install chromium) or Debian's (apt-get install chromium), or set PLAYWRIGHT_CHROMIUM_PATH.",
  );
  return false;
}

const totals = { passed: 0, failed: 0, skipped: 0 };
// The name of every failed test, printed again just before the last line: CI keeps only the tail of a long run.
const failures: string[] = [];
function add(report: TestReport) {
  totals.passed += report.passed;
  totals.failed += report.failed;
  totals.skipped += report.skipped;
  failures.push(...report.failures);
}
/** A runner that left no report (killed, crashed before writing it) is one failure, named, not silence. */
const noReport = (label: string) => {
  totals.failed += 1;
  failures.push(`${label} — no report: the run ended before writing it (see its output above)`);
};
const addVitest = (file: string, label: string) => {
  if (!existsSync(file)) return noReport(label);
  const report = JSON.parse(readFileSync(file, "utf8")) as VitestJson;
  add(readVitestReport(report, label, root));
  fileTimes.push(...vitestFileTimes(report, label, root));
};
const addPlaywright = (file: string) => {
  if (!existsSync(file)) return noReport("browser tests");
  const report = JSON.parse(readFileSync(file, "utf8")) as PlaywrightJson;
  add(readPlaywrightReport(report));
  fileTimes.push(...playwrightFileTimes(report));
};

// Node 24 comes from the node-<platform> optional dependency (node_modules/.bin is first on npm scripts' PATH).
console.log(`Node ${process.version} (${process.execPath})`);
if (Number(process.versions.node.split(".")[0]) < 24) {
  console.warn(
    "warning: this project targets Node 24; run through `npm test` so node_modules/.bin/node is used, or install Node 24 (.nvmrc)",
  );
}

let failed = false;
let lintFailed = false;
if (!skipLint) {
  lintFailed =
    (await run("lint", [join(root, "node_modules", "eslint", "bin", "eslint.js"), "--max-warnings=0", "."])) !== 0;
  // Formatting is checked too (Prettier; `npm run format` fixes it): an unformatted file fails the run. Not beside
  // the lint: run together they took 102 s, one after the other 72 + 17 s (docs/testing.md).
  lintFailed =
    (await run("format check", [
      join(root, "node_modules", "prettier", "bin", "prettier.cjs"),
      "--check",
      "--log-level=warn",
      ".",
    ])) !== 0 || lintFailed;
  failed ||= lintFailed;
}
// The production build beside the integration tests, at the lowest priority: it fills the processor time the tests
// leave idle (waiting on PostgreSQL, on timers, on their own servers starting) and costs the step about half of
// what it takes alone after it (docs/testing.md, "What runs beside what").
const build = skipE2e
  ? null
  : runBeside("production build", [join(root, "node_modules", "next", "dist", "bin", "next"), "build"]);
const vitestJson = join(reports, "vitest.json");
const vitestCode = await run("unit and integration tests", [
  join(root, "node_modules", "vitest", "vitest.mjs"),
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${vitestJson}`,
]);
addVitest(vitestJson, "vitest");
failed ||= vitestCode !== 0;

// The server-dependent integration tests once more (every one with --all-postgres), on a PostgreSQL server that
// is not the embedded one (Debian's, version 15). Which files depend on the server: tests/support/server-dependent.ts.
const debianMissing = debianPostgresUnavailable();
if (debianMissing) {
  console.log(`\n=== integration tests on Debian's PostgreSQL: skipped (${debianMissing}) ===`);
} else {
  const t = performance.now();
  const cluster = await createDebianCluster("itest");
  steps.push({ name: `Debian's PostgreSQL ${cluster.version}: pg_createcluster`, seconds: secondsSince(t) });
  try {
    const debianJson = join(reports, "vitest-debian-pg.json");
    const files = allPostgres ? [] : serverDependentFiles();
    const code = await run(
      `${allPostgres ? "all" : `${files.length} server-dependent`} integration test files on Debian's PostgreSQL ${cluster.version} (port ${cluster.port})`,
      [
        join(root, "node_modules", "vitest", "vitest.mjs"),
        "run",
        "--project",
        "integration",
        "--reporter=default",
        "--reporter=json",
        `--outputFile.json=${debianJson}`,
        ...files,
      ],
      { INTEGRATION_PG_URL: cluster.url },
    );
    addVitest(debianJson, `vitest on PostgreSQL ${cluster.version}`);
    failed ||= code !== 0;
  } finally {
    cluster.drop();
  }
}

if (build) {
  if ((await finish(build)) !== 0 || !ensureBrowser()) {
    failed = true;
  } else {
    const pwJson = join(reports, "playwright.json");
    const code = await run(
      "browser tests",
      [join(root, "node_modules", "playwright", "cli.js"), "test", "--reporter=list,json"],
      {
        PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson,
      },
    );
    addPlaywright(pwJson);
    failed ||= code !== 0;
    // A shortened soak on the same build: two apps, two workers, one SIGKILLed mid-run (docs/audit.md).
    const soak = await run("soak (40 s)", [
      "--conditions=react-server",
      "--import",
      "tsx",
      join(root, "scripts", "soak.ts"),
      "--seconds",
      "40",
    ]);
    if (soak === 0) totals.passed += 1;
    else {
      totals.failed += 1;
      failures.push("soak — see its output above");
    }
    failed ||= soak !== 0;
  }
}

if (totals.passed + totals.failed === 0) failed = true; // a run that tested nothing is not a pass
if (totals.failed > 0) failed = true; // whatever a runner's own exit code said
// Where the time went (docs/testing.md): the slowest files and every step, kept in test-results/timings.json.
const timings = summariseTimings(ciPhases, steps, fileTimes, secondsSince(started));
mkdirSync(reports, { recursive: true });
writeFileSync(join(reports, "timings.json"), `${JSON.stringify(timings, null, 2)}\n`);
console.log("");
for (const line of timingLines(timings)) console.log(line);
if (failures.length > 0) {
  console.log(`\nFailed (${failures.length}):`);
  for (const f of failures) console.log(`  ✘ ${f}`);
}
if (lintFailed) console.log("\nlint or format check failed: see its output above");
console.log(
  `\nTests: ${totals.passed} passed, ${totals.failed + (lintFailed ? 1 : 0)} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}${lintFailed ? " (lint failed)" : ""}`,
);
process.exit(failed ? 1 : 0);
