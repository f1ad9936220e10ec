// npm run bench:ui — what a reviewer's browser downloads and waits for on a cold /queue, beside a bare
// Next.js page (same Next, React and build mode) built and served in the same run.
// Prints first-load JavaScript (sum of every script the page loads, gzip-compressed here with zlib's
// default level, as a server would send it) and the time from navigation to the queue table (or its
// empty state). Needs `next build` first. A script, not a test: it asserts nothing.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { chromium, type Browser, type BrowserContext } from "@playwright/test";
import { demoTenants } from "../../scripts/lib/demo-data";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
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
  writeFileSync(join(dir, "app", "layout.js"), `export default function L({ children }) { return <html lang="en"><body>{children}</body></html>; }\n`);
  writeFileSync(
    join(dir, "app", "page.js"),
    `export default function P() { return <main><table aria-label="bare"><tbody><tr><td>bare</td></tr></tbody></table></main>; }\n`,
  );
  const r = spawnSync(process.execPath, [nextBin, "build"], { cwd: dir, encoding: "utf8", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  if (r.status !== 0) throw new Error(`bare build failed:\n${r.stdout}\n${r.stderr}`);
  return dir;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

type Sample = { jsGzip: number; jsRaw: number; scripts: number; ms: number };

async function measure(context: BrowserContext, url: string, ready: string): Promise<Sample> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true }); // cold: nothing from the HTTP cache
  const bodies: Promise<Buffer | null>[] = [];
  const urls: string[] = [];
  page.on("response", (res) => {
    if (res.request().resourceType() !== "script") return;
    urls.push(res.url());
    bodies.push(res.body().catch(() => null));
  });
  const start = Date.now();
  await page.goto(url, { waitUntil: "commit" });
  await page.locator(ready).first().waitFor({ state: "visible", timeout: 30_000 });
  const ms = Date.now() - start;
  await page.waitForLoadState("networkidle");
  const all = await Promise.all(bodies);
  // BENCH_VERBOSE=1 lists each script with its gzip size (to see what a page pulls in).
  if (process.env.BENCH_VERBOSE) all.forEach((b, i) => b && console.log(`  ${kib(gzipSync(b).length).padStart(10)}  ${urls[i]}`));
  const got = all.filter((b): b is Buffer => !!b);
  await page.close();
  return { jsGzip: got.reduce((s, b) => s + gzipSync(b).length, 0), jsRaw: got.reduce((s, b) => s + b.length, 0), scripts: got.length, ms };
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
  const app = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/start.ts", "--port", String(APP_PORT), "--no-worker"], {
    cwd: root,
    stdio: "ignore",
    env: { ...process.env, EMBEDDED_PG_EPHEMERAL: "1", NEXT_TELEMETRY_DISABLED: "1" },
  });
  children.push(app);
  await Promise.all([waitFor(`http://localhost:${BARE_PORT}/`, 60_000), waitFor(`http://localhost:${APP_PORT}/api/health`, 180_000)]);

  // A few waiting proposals, so the table has rows (the real agent:demo against the running app).
  for (let i = 0; i < 3; i++) {
    spawnSync(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "scripts/agent-demo.ts", "--base-url", `http://localhost:${APP_PORT}`, "--tenant", "shop-us"],
      { cwd: root, stdio: "ignore", timeout: 60_000 },
    );
  }
  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-quic"],
  });
  // Sign in once as a demo reviewer; every measured load gets a fresh page with the cache disabled.
  const reviewer = demoTenants.find((t) => t.slug === "shop-us")!.staff.find((s) => s.roles.includes("reviewer"))!;
  const appContext = await browser.newContext({ baseURL: `http://localhost:${APP_PORT}`, viewport: { width: 1366, height: 900 } });
  const signIn = await appContext.newPage();
  await signIn.goto("/sign-in");
  await signIn.getByLabel("Email").fill(reviewer.email);
  await signIn.getByLabel("Password").fill(reviewer.password);
  await signIn.getByRole("button", { name: "Sign in" }).click();
  await signIn.waitForURL((u) => !u.pathname.startsWith("/sign-in"));
  await signIn.close();
  const bareContext = await browser.newContext({ viewport: { width: 1366, height: 900 } });

  // One warm-up each (server-side compilation caches, database connections), then RUNS cold loads.
  await measure(appContext, `http://localhost:${APP_PORT}/queue`, "[data-queue-state]");
  await measure(bareContext, `http://localhost:${BARE_PORT}/`, "table");
  const appRuns: Sample[] = [];
  const bareRuns: Sample[] = [];
  for (let i = 0; i < RUNS; i++) {
    appRuns.push(await measure(appContext, `http://localhost:${APP_PORT}/queue`, "[data-queue-state]"));
    bareRuns.push(await measure(bareContext, `http://localhost:${BARE_PORT}/`, "table"));
  }
  const row = (name: string, s: Sample[]) =>
    `${name.padEnd(20)} ${kib(median(s.map((x) => x.jsGzip))).padStart(11)} ${kib(median(s.map((x) => x.jsRaw))).padStart(11)} ${String(median(s.map((x) => x.scripts))).padStart(8)} ${`${median(s.map((x) => x.ms))} ms`.padStart(12)}`;
  console.log(`\ncold loads, median of ${RUNS} (Chromium, cache disabled, loopback)`);
  console.log(`${"page".padEnd(20)} ${"JS gzip".padStart(11)} ${"JS raw".padStart(11)} ${"scripts".padStart(8)} ${"to table".padStart(12)}`);
  console.log(row("/queue (product)", appRuns));
  console.log(row("bare Next.js page", bareRuns));
  const extra = median(appRuns.map((x) => x.jsGzip)) - median(bareRuns.map((x) => x.jsGzip));
  console.log(`\n/queue ships ${kib(extra)} of gzipped JavaScript beyond a bare Next.js page; budget for /queue: 150 KiB total.`);
} finally {
  await browser?.close();
  for (const c of children) c.kill("SIGTERM");
  if (bareDir) rmSync(bareDir, { recursive: true, force: true });
}
