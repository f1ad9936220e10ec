// An operator's first tenant on their own PostgreSQL, end to end (docs/operations.md "From nothing to a first
// tenant"): a Debian PostgreSQL server that is not the demo's, an owner role and a least-privilege runtime role
// (docs/database-roles.md), `npm run db:migrate`, `npm run tenant:create` → the one-time setup link in a real
// browser → a password → signed in as that admin → a channel and an agent key issued in Admin → an order through the
// Orders API → an agent's `prepare_refund` → the proposal in that admin's queue. Then `npm run db:seed` against that
// database refuses and loads no demo tenant. Every command is the real CLI, run as a child process; the app is the
// production start (`npm start`) on its own port, next to the demo server the other specs use.
import { expect as baseExpect, test, type Browser } from "@playwright/test";
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SignJWT } from "jose";
import type pg from "pg";
import { withPgClient } from "../lib/server/db/pg-client";
import { createDebianCluster, debianPostgresUnavailable, type DebianCluster } from "../scripts/lib/debian-postgres";
import { findFreePort } from "../scripts/lib/embedded-postgres";

// A production server next to the suite's demo server, on a loaded machine: room for slow first page loads.
const expect = baseExpect.configure({ timeout: 30_000 });
const unavailable = debianPostgresUnavailable();
test.skip(unavailable !== null, `Debian's PostgreSQL is needed for a server that is not the demo's: ${unavailable}`);
// A loaded machine: cluster, migrations, four CLI runs, a production start and a browser walk.
test.describe.configure({ mode: "serial", timeout: 600_000 });

const SLUG = "acme-first";
const ADMIN_EMAIL = "ada@acme-first.example";
const CHANNEL = "web_chat";
const CUSTOMER = "acme_cus_0001";
const ORDER = "ACME-1001";

type Run = { code: number | null; stdout: string; stderr: string };

let cluster: DebianCluster | null = null;
let server: ChildProcess | null = null;
let serverOutput = "";
let signerDir = "";
let urls: { superuser: string; owner: string; app: string; base: string };
let env: Record<string, string | undefined>;

/** Runs an npm script as an operator would, in its own process group (stopped with it on a timeout). */
function npm(args: string[], extraEnv: Record<string, string | undefined> = {}, timeoutMs = 240_000): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn("npm", args, {
      cwd: process.cwd(),
      env: { ...env, ...extraEnv } as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += String(d)));
    child.stderr.on("data", (d) => (stderr += String(d)));
    const timer = setTimeout(() => killGroup(child, "SIGKILL"), timeoutMs);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

async function sql<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  return withPgClient(url, async (client) => (await client.query<T>(text, values)).rows);
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  cluster = await createDebianCluster("e2e_first_tenant");
  // What an operator prepares once (docs/operations.md step 1, docs/database-roles.md): an owner role with its
  // database, and a runtime role that owns nothing.
  const ownerPassword = randomBytes(18).toString("base64url");
  const appPassword = randomBytes(18).toString("base64url");
  const superuser = cluster.url;
  await sql(superuser, `CREATE ROLE gateway_owner LOGIN PASSWORD '${ownerPassword}'`);
  await sql(superuser, `CREATE ROLE gateway_app LOGIN PASSWORD '${appPassword}'`);
  await sql(superuser, `CREATE DATABASE gateway OWNER gateway_owner`);
  const port = await findFreePort();
  const base = `http://127.0.0.1:${port}`;
  urls = {
    superuser: superuser.replace(/\/postgres$/, "/gateway"),
    owner: `postgresql://gateway_owner:${ownerPassword}@127.0.0.1:${cluster.port}/gateway`,
    app: `postgresql://gateway_app:${appPassword}@127.0.0.1:${cluster.port}/gateway`,
    base,
  };
  signerDir = mkdtempSync(join(tmpdir(), "first-tenant-signer-"));
  // Only what a production deployment sets (.env.example): no demo secret, no variable of the suite's demo server.
  env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NEXT_TELEMETRY_DISABLED: "1",
    NODE_ENV: "production",
    DATABASE_URL: urls.owner,
    DATABASE_URL_APP: urls.app,
    NEXTAUTH_URL: base,
    APP_URL: base,
    HOST: "127.0.0.1",
    PORT: String(port),
    NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
    AUDIT_HMAC_KEY: randomBytes(32).toString("base64url"),
    AUDIT_SIGNING_KEY: randomBytes(32).toString("base64"),
    AUDIT_SIGNER_STATE_DIR: signerDir,
    PAYMENT_PROVIDER_API_KEY: `rk_test_${randomBytes(16).toString("hex")}`,
    PAYMENT_PROVIDER_WEBHOOK_SECRET: `whsec_${randomBytes(24).toString("base64url")}`,
  };
});

test.afterAll(async () => {
  if (server && server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((r) => server!.once("exit", r));
    killGroup(server, "SIGTERM");
    const timer = setTimeout(() => killGroup(server!, "SIGKILL"), 30_000);
    await exited;
    clearTimeout(timer);
  }
  cluster?.drop();
  if (signerDir) rmSync(signerDir, { recursive: true, force: true });
});

async function startServer(): Promise<void> {
  server = spawn("npm", ["start"], {
    cwd: process.cwd(),
    env: env as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  server.stdout!.on("data", (d) => (serverOutput += String(d)));
  server.stderr!.on("data", (d) => (serverOutput += String(d)));
  await expect
    .poll(
      async () => {
        if (server!.exitCode !== null) throw new Error(`npm start exited with ${server!.exitCode}:\n${serverOutput}`);
        return (await fetch(`${urls.base}/api/health/live`).catch(() => null))?.status;
      },
      { timeout: 240_000, intervals: [1_000] },
    )
    .toBe(200);
  await expect.poll(() => serverOutput.includes(`"msg":"ready: `), { timeout: 60_000 }).toBe(true);
}

async function adminPage(browser: Browser) {
  const context = await browser.newContext({ baseURL: urls.base });
  return { context, page: await context.newPage() };
}

test("tenant:create → setup link → password → admin issues a channel and an agent key → an agent's proposal in that admin's queue; db:seed refuses", async ({
  browser,
}, testInfo) => {
  try {
    await test.step("the migrations, as the owner", async () => {
      const migrated = await npm(["run", "db:migrate"]);
      expect(migrated.code, migrated.stderr + migrated.stdout).toBe(0);
      const [row] = await sql<{ count: string }>(
        urls.superuser,
        `SELECT count(*) FROM "_prisma_migrations" WHERE finished_at IS NOT NULL`,
      );
      expect(Number(row!.count)).toBeGreaterThan(0);
      expect(await sql(urls.superuser, `SELECT 1 FROM "Tenant"`)).toHaveLength(0);
    });

    let setupUrl = "";
    await test.step("npm run tenant:create prints the one-time setup link once; the same slug again is refused", async () => {
      const created = await npm([
        "run",
        "tenant:create",
        "--",
        "--slug",
        SLUG,
        "--name",
        "Acme First",
        "--currency",
        "EUR",
        "--locale",
        "en",
        "--time-zone",
        "Europe/Berlin",
        "--admin-email",
        ADMIN_EMAIL,
        "--admin-name",
        "Ada Admin",
      ]);
      expect(created.code, created.stderr).toBe(0);
      const line = created.stdout.split("\n").find((l) => l.startsWith("{"));
      const printed = JSON.parse(line ?? "null") as {
        tenant: { slug: string };
        admin: { email: string };
        setupUrl: string;
        expiresAt: string;
      };
      expect(printed).toMatchObject({ tenant: { slug: SLUG }, admin: { email: ADMIN_EMAIL } });
      expect(printed.setupUrl).toMatch(new RegExp(`^${urls.base}/setup/[A-Za-z0-9_-]{43}$`));
      setupUrl = printed.setupUrl;
      // Stored only as a hash; the creation audited with the operator as actor.
      const tokens = await sql<{ tokenHash: string }>(urls.superuser, `SELECT "tokenHash" FROM "StaffSetupToken"`);
      expect(tokens).toHaveLength(1);
      expect(JSON.stringify(tokens)).not.toContain(setupUrl.split("/setup/")[1]);
      const events = await sql<{ actorType: string; actorId: string }>(
        urls.superuser,
        `SELECT "actorType", "actorId" FROM "AuditEvent" WHERE action = 'operator:create_tenant'`,
      );
      expect(events).toEqual([{ actorType: "system", actorId: "operator" }]);

      const again = await npm([
        "run",
        "tenant:create",
        "--",
        "--slug",
        SLUG,
        "--name",
        "Other",
        "--currency",
        "EUR",
        "--locale",
        "en",
        "--time-zone",
        "UTC",
        "--admin-email",
        "someone@else.example",
      ]);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain(`A tenant with the slug "${SLUG}" already exists.`);
      expect(again.stdout).not.toContain("/setup/");
      expect(await sql(urls.superuser, `SELECT 1 FROM "Tenant"`)).toHaveLength(1);
    });

    await test.step("the production start on that database, connecting as the runtime role", async () => {
      await startServer();
      expect(serverOutput).not.toContain("demo:credentials");
      const ready = (await (await fetch(`${urls.base}/api/health/ready`)).json()) as {
        checks: Record<string, { status: string }>;
      };
      expect(ready.checks).toMatchObject({ database: { status: "ok" }, migrations: { status: "ok" } });
      const roles = await sql<{ usename: string }>(
        urls.superuser,
        `SELECT DISTINCT usename FROM pg_stat_activity WHERE datname = 'gateway'`,
      );
      expect(roles.map((r) => r.usename)).toContain("gateway_app");
    });

    const { context, page } = await adminPage(browser);
    const password = `First tenant ${randomBytes(9).toString("base64url")}`;
    await test.step("the setup link in a real browser: a password, then signed in as that admin", async () => {
      await page.goto(setupUrl);
      await expect(page.getByRole("heading", { name: "Set up your account" })).toBeVisible();
      await expect(
        page.getByText("Welcome, Ada Admin. Acme First invited you: choose a password to join."),
      ).toBeVisible();
      await page.getByLabel("New password").fill(password);
      await page.getByLabel("Repeat the password").fill(password);
      await page.getByRole("button", { name: "Set password" }).click();
      // Signed in with the new password: an admin lands on Admin, not on the sign-in page.
      await expect(page).toHaveURL(/\/admin$/);
      // Single use: the same link now says so.
      await page.goto(setupUrl);
      await expect(page.getByText("This setup link is no longer valid").first()).toBeVisible();
    });

    let channelSecret = "";
    let agentKey = "";
    await test.step("in Admin: a channel and an agent key, each shown once", async () => {
      await page.goto("/admin");
      // No order yet: the tenant's settings show what tenant:create set, the currency still editable.
      const settings = page.getByRole("region", { name: "Tenant settings" });
      await expect(settings.getByLabel("Time zone")).toHaveValue("Europe/Berlin");
      await expect(settings.getByLabel("Currency")).toHaveValue("EUR");
      await expect(settings.getByLabel("Currency")).not.toHaveAttribute("readonly");
      const create = page.getByRole("region", { name: "Create a channel" });
      await create.getByLabel("Channel id (e.g. phone_bot)").fill(CHANNEL);
      await create.getByLabel("Name").fill("Website chat");
      await create.getByRole("checkbox", { name: "lookup_order" }).check();
      await create.getByRole("checkbox", { name: "prepare_refund" }).check();
      await create.getByRole("button", { name: "Create channel" }).click();
      channelSecret = (await create.getByTestId("shown-once").textContent({ timeout: 30_000 }))!.trim();
      expect(channelSecret.length).toBeGreaterThanOrEqual(32);

      await page.reload();
      const issue = page.getByRole("region", { name: "Issue an agent key" });
      await issue.getByLabel("Channel").selectOption(CHANNEL);
      await issue.getByLabel("Label").fill("Support bot");
      await issue.getByRole("button", { name: "Issue key" }).click();
      agentKey = (await issue.getByTestId("shown-once").textContent({ timeout: 30_000 }))!.trim();
      expect(agentKey).toMatch(/^agk_/);
    });

    await test.step("an order of the new tenant through the Orders API", async () => {
      // The Admin page has no form for integration keys: the admin's session calls the same JSON API the page
      // would (docs/systems-of-record.md), from the dashboard's origin.
      const issued = await page.request.post("/api/admin/integration-keys", {
        headers: { origin: urls.base },
        data: { label: "Shop backend", scopes: ["orders:write"] },
      });
      expect(issued.status(), await issued.text()).toBe(201);
      const integrationKey = ((await issued.json()) as { key: string }).key;
      const put = await fetch(`${urls.base}/api/v1/orders/${ORDER}`, {
        method: "PUT",
        headers: { authorization: `Bearer ${integrationKey}`, "content-type": "application/json" },
        body: JSON.stringify({
          customer: { id: CUSTOMER, email: "grace@customer.example", name: "Grace Customer" },
          currency: "EUR",
          total_minor: 4200,
          status: "paid",
          placed_at: new Date(Date.now() - 86_400_000).toISOString(),
          items: [{ sku: "MUG-1", name: "Mug", quantity: 1, unit_minor: 4200 }],
          payments: [
            {
              provider: "manual",
              reference: "pay_acme_1001",
              method: "card",
              captured_minor: 4200,
              holder: "Grace Customer",
              display: "Visa •••• 4242",
            },
          ],
        }),
      });
      expect(put.status, await put.clone().text()).toBe(201);
      expect(await put.json()).toMatchObject({ number: ORDER, refundable: { minor: 4200, currency: "EUR" } });
      // From the first order on, the currency is fixed.
      await page.goto("/admin");
      await expect(page.getByRole("region", { name: "Tenant settings" }).getByLabel("Currency")).toHaveAttribute(
        "readonly",
        "",
      );
    });

    let proposalId = "";
    await test.step("the agent's prepare_refund with that key, for the order's customer", async () => {
      const token = await new SignJWT({ tenant: SLUG })
        .setProtectedHeader({ alg: "HS256" })
        .setSubject(CUSTOMER)
        .setAudience(`${SLUG}/${CHANNEL}`)
        .setIssuedAt()
        .setExpirationTime("10m")
        .sign(new TextEncoder().encode(channelSecret));
      const res = await fetch(`${urls.base}/api/agent/tool-calls`, {
        method: "POST",
        headers: { authorization: `Bearer ${agentKey}`, "x-end-user-token": token, "content-type": "application/json" },
        body: JSON.stringify({
          type: "tool_use",
          id: "toolu_first_tenant",
          name: "prepare_refund",
          input: { order_id: ORDER, reason: "damaged_item" },
        }),
      });
      expect(res.status).toBe(200);
      const block = (await res.json()) as { is_error: boolean; content: string };
      const answer = JSON.parse(block.content) as {
        code: string;
        result: { proposal_id: string; amount: { minor: number; currency: string } };
      };
      expect(answer, block.content).toMatchObject({
        code: "approval_required",
        result: { amount: { minor: 4200, currency: "EUR" } },
      });
      proposalId = answer.result.proposal_id;
    });

    await test.step("the proposal is in that admin's queue", async () => {
      await page.goto("/queue");
      const row = page.locator(`tr[data-proposal-id="${proposalId}"]`);
      await expect(row).toBeVisible({ timeout: 30_000 });
      await expect(row).toContainText(ORDER);
      await expect(row.locator("[data-minor]")).toHaveAttribute("data-minor", "4200");
      const [stored] = await sql<{ status: string; slug: string }>(
        urls.superuser,
        `SELECT p.status::text, t.slug FROM "Proposal" p JOIN "Tenant" t ON t.id = p."tenantId" WHERE p.id = $1`,
        [proposalId],
      );
      expect(stored).toEqual({ status: "pending_approval", slug: SLUG });
    });
    await context.close();

    await test.step("npm run db:seed against that database refuses; no demo tenant is created", async () => {
      const seeded = await npm(["run", "db:seed"]);
      expect(seeded.code).not.toBe(0);
      expect(seeded.stdout + seeded.stderr).toContain(
        `refusing to load the demo: this database holds tenants that are not demo tenants (${SLUG})`,
      );
      const tenants = await sql<{ slug: string; demo: boolean }>(
        urls.superuser,
        `SELECT slug, demo FROM "Tenant" ORDER BY slug`,
      );
      expect(tenants).toEqual([{ slug: SLUG, demo: false }]);
      expect(
        await sql(
          urls.superuser,
          `SELECT 1 FROM "StaffUser" WHERE "tenantId" NOT IN (SELECT id FROM "Tenant" WHERE slug = $1)`,
          [SLUG],
        ),
      ).toHaveLength(0);
    });
  } finally {
    // Kept beside the test's results (the app's errors name only a reference in the page).
    if (serverOutput) {
      writeFileSync(testInfo.outputPath("npm-start.log"), serverOutput);
      await testInfo.attach("npm-start.log", { path: testInfo.outputPath("npm-start.log"), contentType: "text/plain" });
    }
  }
});
