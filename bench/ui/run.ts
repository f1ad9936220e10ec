// npm run bench:ui — what a person's browser downloads and waits for, beside a bare Next.js page (same Next,
// React and build mode) built and served in the same run:
//  1. First-load JavaScript of every main page (scripts/lib/first-load-js.ts: the sum of every script the page
//     loads, gzip-compressed at zlib's default level, as a server would send it) against its budget, and the
//     time from navigation to the queue table (or its empty state) beside the bare page;
//  2. push latency: from an agent's proposal committed (its createdAt) to its row appearing in an open queue
//     (stamped in the page by a MutationObserver), p50/p95 with the push stream and with the stream blocked
//     (the polling it replaces). Needs `next build` first. A script, not a test: it asserts nothing
//     (each page is marked ok or OVER against its budget in scripts/lib/first-load-js.ts).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { chromium, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { demoTenants } from "../../scripts/lib/demo-data";
import { createFreshOrder } from "../../scripts/lib/fresh-order";
import { firstLoadJs, kib, PAGE_BUDGETS, type FirstLoad } from "../../scripts/lib/first-load-js";
import type pg from "pg";
import { openPgClient } from "../../lib/server/db/pg-client";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PUSH_SAMPLES = Number(process.env.BENCH_PUSH_SAMPLES ?? 10);
const APP_PORT = Number(process.env.BENCH_APP_PORT ?? 3290);
const BARE_PORT = Number(process.env.BENCH_BARE_PORT ?? 3291);
const root = process.cwd();
const nextBin = join(root, "node_modules", "next", "dist", "bin", "next");
const chromiumPath = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p));

if (!existsSync(join(root, ".next", "BUILD_ID"))) {
  console.error("bench:ui needs a production build: run `npx next build` first.");
  process.exit(1);
}

async function waitFor(url: string, timeoutMs: number) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} did not come up`);
}

/** A bare Next.js app router page, built with the product's own node_modules. */
function buildBare(): string {
  // Inside the repository (.data is git-ignored) so it resolves the product's node_modules and Turbopack
  // accepts it as part of the workspace.
  mkdirSync(join(root, ".data"), { recursive: true });
  const dir = mkdtempSync(join(root, ".data", "bench-ui-bare-"));
  mkdirSync(join(dir, "app"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ private: true, type: "module" }));
  writeFileSync(join(dir, "next.config.js"), `export default { turbopack: { root: ${JSON.stringify(root)} } };\n`);
  writeFileSync(
    join(dir, "app", "layout.js"),
    `export default function L({ children }) { return <html lang="en"><body>{children}</body></html>; }\n`,
  );
  writeFileSync(
    join(dir, "app", "page.js"),
    `export default function P() { return <main><table aria-label="bare"><tbody><tr><td>bare</td></tr></tbody></table></main>; }\n`,
  );
  const r = spawnSync(process.execPath, [nextBin, "build"], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (r.status !== 0) throw new Error(`bare build failed:\n${r.stdout}\n${r.stderr}`);
  return dir;
}

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
const pct = (xs: number[], p: number) =>
  [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;

async function measure(context: BrowserContext, url: string, ready: string): Promise<FirstLoad> {
  const load = await firstLoadJs(context, url, ready);
  // BENCH_VERBOSE=1 lists each script with its gzip size (to see what a page pulls in).
  if (process.env.BENCH_VERBOSE) for (const f of load.files) console.log(`  ${kib(f.gzip).padStart(10)}  ${f.url}`);
  return load;
}

/** A context signed in as the tenant's first demo staff member with the role (or signed out). */
async function contextAs(b: Browser, role: string | null): Promise<BrowserContext> {
  const context = await b.newContext({
    baseURL: `http://localhost:${APP_PORT}`,
    viewport: { width: 1366, height: 900 },
  });
  if (!role) return context;
  const who = demoTenants.find((t) => t.slug === "shop-us")!.staff.find((x) => x.roles.includes(role as never))!;
  const page = await context.newPage();
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((u) => !u.pathname.startsWith("/sign-in"));
  await page.close();
  return context;
}

/**
 * One agent proposal made while `page` shows the queue: the time from its commit (createdAt, read from the
 * database) to its row appearing, stamped inside the page at the DOM mutation (not when this process notices).
 */
async function proposalToRow(page: Page, db: pg.Client, sandboxUrl: string, databaseUrl: string): Promise<number> {
  const order = await createFreshOrder({
    databaseUrl,
    sandboxUrl,
    tenantSlug: "shop-us",
    amountMinor: 1_500,
    prefix: "BUI",
  });
  // A MutationObserver (installed once per page) stamps each row when it first appears; the wait reads the stamp.
  // A string, not a function: tsx would wrap named inner functions in a helper the page does not have.
  await page.evaluate(`(() => {
    if (window.__rows) return;
    const rows = new Map();
    window.__rows = rows;
    const stamp = () => {
      for (const r of document.querySelectorAll("tr[data-proposal-id]")) {
        const id = r.getAttribute("data-proposal-id");
        if (!rows.has(id)) rows.set(id, { at: Date.now(), text: r.textContent ?? "" });
      }
    };
    stamp();
    new MutationObserver(stamp).observe(document.body, { childList: true, subtree: true });
  })()`);
  const seen = page.waitForFunction(
    (number) => {
      const rows = (window as unknown as { __rows: Map<string, { at: number; text: string }> }).__rows;
      return [...rows.values()].find((r) => r.text.includes(number))?.at ?? null;
    },
    order,
    { polling: "raf", timeout: 60_000 },
  );
  const agent = spawn(
    process.execPath,
    [
      "--conditions=react-server",
      "--import",
      "tsx",
      "scripts/agent-demo.ts",
      "--base-url",
      `http://localhost:${APP_PORT}`,
      "--tenant",
      "shop-us",
      "--order",
      order,
    ],
    { cwd: root, stdio: "ignore" },
  );
  const visibleAt = (await (await seen).jsonValue()) as number;
  await new Promise((r) => (agent.exitCode !== null ? r(null) : agent.once("exit", r)));
  const created = (
    await db.query<{ at: Date }>(
      `SELECT p."createdAt" AS at FROM "Proposal" p JOIN "Order" o ON o.id = p."orderId" WHERE o.number = $1`,
      [order],
    )
  ).rows[0]!.at;
  return visibleAt - created.getTime();
}

const children: ChildProcess[] = [];
let browser: Browser | null = null;
let bareDir: string | null = null;
try {
  console.log("building a bare Next.js page for the baseline…");
  bareDir = buildBare();
  children.push(
    spawn(process.execPath, [nextBin, "start", "-p", String(BARE_PORT)], {
      cwd: bareDir,
      stdio: "ignore",
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    }),
  );
  console.log("starting the product (demo mode, throw-away database)…");
  // The start script writes its database's and sandbox's URLs next to this file (as for the browser tests).
  mkdirSync(join(root, ".data", "bench-ui"), { recursive: true });
  const urlFile = join(root, ".data", "bench-ui", "database-url");
  const app = spawn(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "scripts/start.ts", "--port", String(APP_PORT), "--no-worker"],
    {
      cwd: root,
      stdio: "ignore",
      env: { ...process.env, EMBEDDED_PG_EPHEMERAL: "1", NEXT_TELEMETRY_DISABLED: "1", E2E_DATABASE_URL_FILE: urlFile },
    },
  );
  children.push(app);
  await Promise.all([
    waitFor(`http://localhost:${BARE_PORT}/`, 60_000),
    waitFor(`http://localhost:${APP_PORT}/api/health`, 180_000),
  ]);

  // A few waiting proposals, so the table has rows (the real agent:demo against the running app).
  for (let i = 0; i < 3; i++) {
    spawnSync(
      process.execPath,
      [
        "--conditions=react-server",
        "--import",
        "tsx",
        "scripts/agent-demo.ts",
        "--base-url",
        `http://localhost:${APP_PORT}`,
        "--tenant",
        "shop-us",
      ],
      { cwd: root, stdio: "ignore", timeout: 60_000 },
    );
  }
  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-quic"],
  });
  const databaseUrl = readFileSync(urlFile, "utf8").trim();
  const sandboxUrl = readFileSync(join(root, ".data", "bench-ui", "e2e-sandbox-url"), "utf8").trim();
  const db = await openPgClient(databaseUrl);
  const pending = (
    await db.query<{ id: string }>(
      `SELECT p.id FROM "Proposal" p JOIN "Tenant" t ON t.id = p."tenantId" WHERE t.slug = 'shop-us' AND p.status = 'pending_approval' LIMIT 1`,
    )
  ).rows[0]!.id;
  const bareContext = await browser.newContext({ viewport: { width: 1366, height: 900 } });

  // 1. Every main page: one warm-up (server-side caches, connections), then RUNS cold loads each.
  const results: { name: string; budgetKiB: number; runs: FirstLoad[] }[] = [];
  for (const role of [null, "reviewer", "ops", "auditor", "admin"]) {
    const context = await contextAs(browser, role);
    for (const p of PAGE_BUDGETS.filter((x) => x.role === role)) {
      const url = `http://localhost:${APP_PORT}${p.path.replace("{pending}", pending)}`;
      await measure(context, url, p.ready);
      const runs: FirstLoad[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await measure(context, url, p.ready));
      results.push({ name: p.path.replace("{pending}", ":id"), budgetKiB: p.budgetKiB, runs });
    }
    await context.close();
  }
  await measure(bareContext, `http://localhost:${BARE_PORT}/`, "table");
  const bareRuns: FirstLoad[] = [];
  for (let i = 0; i < RUNS; i++) bareRuns.push(await measure(bareContext, `http://localhost:${BARE_PORT}/`, "table"));
  const row = (name: string, s: FirstLoad[], budget: string) =>
    `${name.padEnd(20)} ${kib(median(s.map((x) => x.jsGzip))).padStart(11)} ${kib(median(s.map((x) => x.jsRaw))).padStart(11)} ${String(median(s.map((x) => x.scripts))).padStart(8)} ${`${median(s.map((x) => x.ms))} ms`.padStart(12)} ${budget.padStart(14)}`;
  console.log(`\ncold loads, median of ${RUNS} (Chromium, cache disabled, loopback)`);
  console.log(
    `${"page".padEnd(20)} ${"JS gzip".padStart(11)} ${"JS raw".padStart(11)} ${"scripts".padStart(8)} ${"to ready".padStart(12)} ${"budget".padStart(14)}`,
  );
  for (const r of results) {
    const within = median(r.runs.map((x) => x.jsGzip)) <= r.budgetKiB * 1024;
    console.log(row(r.name, r.runs, `${r.budgetKiB} KiB ${within ? "ok" : "OVER"}`));
  }
  console.log(row("bare Next.js page", bareRuns, ""));
  const queue = results.find((r) => r.name === "/queue")!;
  const extra = median(queue.runs.map((x) => x.jsGzip)) - median(bareRuns.map((x) => x.jsGzip));
  console.log(`\n/queue ships ${kib(extra)} of gzipped JavaScript beyond a bare Next.js page.`);

  // 2. Push latency: an open queue, PUSH_SAMPLES proposals with the stream, then as many with it blocked.
  const latencies: Record<"push" | "poll", number[]> = { push: [], poll: [] };
  for (const mode of ["push", "poll"] as const) {
    const context = await contextAs(browser, "reviewer");
    const page = await context.newPage();
    if (mode === "poll") await page.route("**/api/stream/**", (route) => route.abort());
    await page.goto("/queue");
    await page.locator("[data-queue-state]").first().waitFor();
    if (mode === "push") await page.locator('[data-pushed="true"]').first().waitFor({ timeout: 30_000 });
    for (let i = 0; i < PUSH_SAMPLES; i++) latencies[mode].push(await proposalToRow(page, db, sandboxUrl, databaseUrl));
    await context.close();
  }
  await db.end();
  console.log(
    `\nnew proposal → row visible in an open queue, ${PUSH_SAMPLES} proposals each (agent:demo against the app)`,
  );
  console.log(`${"".padEnd(28)} ${"p50".padStart(9)} ${"p95".padStart(9)} ${"max".padStart(9)}`);
  for (const mode of ["push", "poll"] as const) {
    const xs = latencies[mode];
    const label = mode === "push" ? "push (SSE, LISTEN/NOTIFY)" : "poll (stream blocked)";
    console.log(
      `${label.padEnd(28)} ${`${pct(xs, 0.5)} ms`.padStart(9)} ${`${pct(xs, 0.95)} ms`.padStart(9)} ${`${Math.max(...xs)} ms`.padStart(9)}`,
    );
  }
  console.log(
    `push p95 / poll p95: ${(pct(latencies.push, 0.95) / pct(latencies.poll, 0.95)).toFixed(2)}× (goal: push p95 ≤ 1000 ms)`,
  );
} finally {
  await browser?.close();
  for (const c of children) c.kill("SIGTERM");
  if (bareDir) rmSync(bareDir, { recursive: true, force: true });
}
