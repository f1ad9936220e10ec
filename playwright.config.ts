import { defineConfig, devices } from "@playwright/test";
import { existsSync } from "node:fs";

// The browser: Playwright's own when it is installed, else Debian's chromium (see scripts/test.ts).
const systemChromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p));
const executablePath =
  process.env.PLAYWRIGHT_CHROMIUM_PATH ?? (process.env.PLAYWRIGHT_USE_BUNDLED === "1" ? undefined : systemChromium);
const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://localhost:${port}`;
const oidcTestProvider = {
  OIDC_ISSUER: `http://localhost:${port + 50}`,
  OIDC_CLIENT_ID: "e2e-dashboard",
  OIDC_CLIENT_SECRET: "e2e-oidc-client-secret-for-tests-only",
  OIDC_NAME: "Test SSO",
};

// Must run alone (see the "serial" project).
const serialSpecs = new RegExp(
  `/(${[
    "address-change",
    "admin-governance",
    "admin-keys",
    "admin-oidc",
    "admin-policy",
    "admin-polish",
    "admin-review-webhook",
    "admin-tenant",
    "admin-webhook-deliveries",
    "admin-witnesses",
    "approvals",
    "cancel-order",
    "customer-confirmation",
    "declared-actions",
    "executions",
    "inbox",
    "notifications",
    "passkeys",
    "push",
    "review-signals",
    "sign-out",
    "step-up-window",
    "ui-dashboard",
  ].join("|")})\\.spec\\.ts$`,
);

// Every project drives the same browser (the canary scan signs a reviewer in too).
const chromium = {
  ...devices["Desktop Chrome"],
  launchOptions: {
    executablePath,
    // No --disable-gpu: on a machine without a GPU, Chromium then composites through SwiftShader, which took ~8 % less
    // CPU than its software compositor over the same specs (interleaved runs, docs/testing.md).
    args: [
      "--no-sandbox",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
    ],
  },
};

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  // E2E_TIMEOUT_MS: a longer per-test timeout on a machine shared with other heavy work (60 s otherwise).
  timeout: Number(process.env.E2E_TIMEOUT_MS ?? 60_000),
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL,
    // No trace in CI (nobody opens a CI run's trace files; the DOM snapshot of every action costs ~5 % of the step);
    // locally, a failed test keeps its trace without the screencast: the screencast's frames, captured and encoded
    // by the browser for every test, cost ~15 % of the browser step's CPU on the 2-core machine (docs/testing.md).
    trace: process.env.CI ? "off" : { mode: "retain-on-failure", screenshots: false },
    screenshot: "only-on-failure",
    // One browser context per worker, reset between tests (cookies, storage, cache, service workers, pages, routes,
    // emulation) instead of a new one per test: a new context started a cold renderer that parsed and compiled the
    // app's JavaScript again, ~1.3 s a test (docs/testing.md). A spec that needs other context options (a phone,
    // permissions, a locale) gets a fresh context, as does every browser.newContext() a spec opens itself.
    // e2e/context-reuse.spec.ts holds the reset to what the specs rely on.
    reuseContext: true,
  },
  projects: [
    // Every demo staff member signs in once; specs that do not test signing in reuse it (useSession).
    // (Retried: every other project waits for it, and one slow sign-in must not skip the whole run.)
    { name: "setup", testMatch: /auth\.setup\.ts/, fullyParallel: true, retries: 2, use: chromium },
    // Specs on their own orders and proposals, two at a time (fresh orders via e2e/support/db.ts).
    {
      name: "chromium",
      testIgnore: [/canary-scan\.spec\.ts/, /auth\.setup\.ts/, serialSpecs],
      dependencies: ["setup"],
      use: chromium,
    },
    // Specs that change what other specs rely on (a tenant's settings, roles, sessions' step-up, the sandbox's
    // faults, the channel secrets) or count the whole queue: alone, one after another, after the others.
    { name: "serial", testMatch: serialSpecs, dependencies: ["chromium"], workers: 1, use: chromium },
    // After every other spec: scan the database and the server's logs for secrets and personal data.
    { name: "canary-scan", testMatch: /canary-scan\.spec\.ts/, dependencies: ["serial"], use: chromium },
  ],
  // A fresh throw-away embedded PostgreSQL with migrations and the demo, and the production build.
  webServer: {
    command: `node --conditions=react-server --import tsx scripts/start.ts --port ${port}`,
    url: `${baseURL}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    gracefulShutdown: { signal: "SIGTERM", timeout: 15_000 },
    // Everything the server prints goes to .data/e2e-server.log (scanned by canary-scan.spec.ts).
    stdout: "ignore",
    stderr: "pipe",
    env: {
      EMBEDDED_PG_EPHEMERAL: "1",
      NEXT_TELEMETRY_DISABLED: "1",
      LOG_LEVEL: "info",
      E2E_DATABASE_URL_FILE: ".data/e2e-database-url",
      E2E_LOG_FILE: ".data/e2e-server.log",
      // SSO against the real OpenID provider that e2e/admin-oidc.spec.ts starts (oidc-provider) on port+50.
      ...oidcTestProvider,
      // Notification e-mails go to the real SMTP server (smtp-server) that e2e/notifications.spec.ts listens
      // with on port+60. While no spec listens there, deliveries fail and are retried, then given up: harmless.
      SMTP_URL: `smtp://127.0.0.1:${port + 60}`,
    },
  },
});
