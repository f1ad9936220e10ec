// The deployable package without a container runtime (docs/operations.md "Deploying with containers"): everything
// the Dockerfile copies and compose.yaml starts exists, and the image's entrypoint — run as it is, from a tree
// holding only what the runtime stage copies — starts the app in production mode against a real PostgreSQL, with
// every line it prints being JSON (one access-log line per request) and no demo hint.
import { expect, test } from "@playwright/test";
import { spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { accessSync, constants, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openPgClient } from "../lib/server/db/pg-client";
import { findFreePort } from "../scripts/lib/embedded-postgres";

test.setTimeout(240_000);
const root = process.cwd();
const dockerfile = readFileSync(join(root, "Dockerfile"), "utf8");
const compose = readFileSync(join(root, "compose.yaml"), "utf8");

/** The runtime stage's `COPY --from=build` sources (paths inside the build stage, which holds the repository and its build). */
function runtimeCopies(): string[] {
  const runtime = dockerfile.slice(dockerfile.indexOf("AS runtime"));
  return [...runtime.matchAll(/^COPY --from=build (.+) \S+$/gm)].flatMap((m) =>
    m[1]!.split(/\s+/).map((p) => p.replace(/^\/app\/?/, "")),
  );
}

test("the Dockerfile and compose.yaml name only things that exist", () => {
  expect(dockerfile).toMatch(/^FROM node:24[-\w.]* AS build$/m);
  expect(dockerfile).toMatch(/npm ci --omit=dev/);
  expect(dockerfile).toMatch(/^USER node$/m);
  expect(dockerfile).toMatch(/^HEALTHCHECK .*\n.*\/api\/health\/ready/m);
  // Sources copied from the build context.
  for (const m of dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm)) {
    for (const src of m[1]!.split(/\s+/))
      if (src !== ".") expect(existsSync(join(root, src)), `COPY ${src}`).toBe(true);
  }
  // What the runtime stage takes from the build stage: the repository's files and the build's outputs.
  const copies = runtimeCopies();
  expect(copies).toEqual(expect.arrayContaining([".next", "lib", "scripts", "prisma", "package.json"]));
  for (const src of copies) expect(existsSync(join(root, src)), `COPY --from=build ${src}`).toBe(true);
  expect(existsSync(join(root, ".next", "BUILD_ID"))).toBe(true);
  expect(existsSync(join(root, "lib", "server", "db", "generated"))).toBe(true);
  const entrypoint = /^ENTRYPOINT \["\/app\/(.+)"\]$/m.exec(dockerfile)?.[1];
  expect(entrypoint).toBe("scripts/docker-entrypoint.sh");
  accessSync(join(root, entrypoint!), constants.X_OK);

  // compose: PostgreSQL 18 on a volume, migrations once, app, worker, the sandbox under a profile; every script it runs exists.
  expect(compose).toMatch(/image: postgres:18\n/);
  expect(compose).toMatch(/- pgdata:\/var\/lib\/postgresql\n/);
  expect(compose).toMatch(/condition: service_completed_successfully/);
  for (const service of ["db", "migrate", "app", "worker", "sandbox"])
    expect(compose).toMatch(new RegExp(`^  ${service}:$`, "m"));
  expect(compose).toMatch(/profiles: \["sandbox"\]/);
  const scripts = [...compose.matchAll(/"(scripts\/[\w-]+\.ts)"/g)].map((m) => m[1]!);
  expect(scripts.sort()).toEqual(["scripts/db-migrate.ts", "scripts/provider-sandbox.ts", "scripts/worker.ts"]);
  for (const s of scripts) expect(existsSync(join(root, s)), s).toBe(true);
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> };
  for (const m of compose.matchAll(/npm run ([\w:-]+)/g)) expect(pkg.scripts[m[1]!], `npm run ${m[1]}`).toBeTruthy();
});

test("the entrypoint starts the pruned tree in production against a real PostgreSQL; every line it prints is JSON", async () => {
  // The tree the runtime stage holds (node_modules linked: this machine has no separate production install).
  const tree = mkdtempSync(join(tmpdir(), "image-"));
  for (const src of runtimeCopies())
    cpSync(join(root, src), join(tree, src), {
      recursive: true,
      filter: (p) => !p.includes(`${join(".next", "cache")}`),
    });
  symlinkSync(join(root, "node_modules"), join(tree, "node_modules"));

  // A fresh database on the suite's PostgreSQL server: no demo tenant in it.
  const serverUrl = readFileSync(join(root, ".data", "e2e-database-url"), "utf8")
    .trim()
    .replace(/\/[^/?]+(\?.*)?$/, "/postgres");
  const name = `image_${randomUUID().replace(/-/g, "").slice(0, 10)}`;
  const admin = await openPgClient(serverUrl);
  await admin.query(`CREATE DATABASE "${name}"`);
  const port = await findFreePort();
  let out = "";
  const proc = spawn(join(tree, "scripts", "docker-entrypoint.sh"), ["--port", String(port), "--no-worker"], {
    cwd: tree,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: serverUrl.replace(/\/postgres$/, `/${name}`),
      NEXTAUTH_URL: `http://127.0.0.1:${port}`,
      NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
      AUDIT_HMAC_KEY: randomBytes(32).toString("base64url"),
      AUDIT_SIGNING_KEY: randomBytes(32).toString("base64"),
      PAYMENT_PROVIDER_API_KEY: `rk_test_${randomBytes(16).toString("hex")}`,
      HOST: "127.0.0.1",
      NEXT_TELEMETRY_DISABLED: "1",
      NODE_ENV: "production", // as the image's ENV
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  proc.stdout.on("data", (d) => (out += String(d)));
  proc.stderr.on("data", (d) => (out += String(d)));
  try {
    await expect
      .poll(async () => (await fetch(`http://127.0.0.1:${port}/api/health/ready`).catch(() => null))?.status, {
        timeout: 180_000,
        intervals: [500],
      })
      .toBe(200);
    const ready = (await (
      await fetch(`http://127.0.0.1:${port}/api/health/ready`, { headers: { "x-trace-id": "deploy-check-0001" } })
    ).json()) as {
      checks: Record<string, { status: string }>;
    };
    expect(ready.checks).toMatchObject({
      database: { status: "ok" },
      migrations: { status: "ok" },
      paymentProvider: { status: "skipped" },
    });
    expect((await fetch(`http://127.0.0.1:${port}/api/health/live`)).status).toBe(200);
    await expect.poll(() => out.includes('"msg":"ready: '), { timeout: 30_000 }).toBe(true);
  } finally {
    proc.kill("SIGTERM");
    await new Promise((r) => (proc.exitCode !== null ? r(null) : proc.once("exit", r)));
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
    rmSync(tree, { recursive: true, force: true });
  }

  const lines = out.split("\n").filter((l) => l.trim() !== "");
  expect(lines.length).toBeGreaterThan(5);
  const parsed = lines.map((line) => {
    try {
      return JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw new Error(`not a JSON line: ${line}`);
    }
  });
  const access = parsed.find(
    (l) => l.msg === "request" && l.route === "/api/health/ready" && l.traceId === "deploy-check-0001",
  );
  expect(access).toMatchObject({ method: "GET", status: 200, traceId: "deploy-check-0001" });
  expect(typeof access!.ms).toBe("number");
  expect(out).not.toContain("demo:credentials");
  expect(parsed.some((l) => l.service === "start" && l.msg === "stopped")).toBe(true);
});
