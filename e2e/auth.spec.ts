import { expect, test } from "@playwright/test";
import { signIn, staff, useSession } from "./support/auth";
import { withDb } from "./support/db";

// Signing in through the form is tested where it is the subject (the landing of each role, wrong password, unknown
// email, the return to a signed-out URL, before hydration); what a signed-in person sees or may open starts
// from the stored session (useSession), as the other specs do.

const NAV_LABELS_EN = ["Inbox", "Queue", "Decided", "Executions", "Audit", "Admin"];
// The inbox link carries its count when something waits (named "Inbox 2 waiting for you").
const INBOX = /^Inbox/;

test.describe("sign-in and role-based navigation", () => {
  const expected: Record<string, (string | RegExp)[]> = {
    ops: [INBOX, "Queue", "Decided", "Executions"],
    reviewer: [INBOX, "Queue", "Decided"],
    auditor: ["Audit"],
  };
  for (const [role, labels] of Object.entries(expected)) {
    test(`${role} sees only its navigation`, async ({ page }) => {
      await useSession(page, staff("shop-us", role as "ops"), { landing: true });
      const nav = page.getByRole("navigation", { name: "Main navigation" });
      await expect(nav.getByRole("link")).toHaveText(labels);
      for (const other of NAV_LABELS_EN.filter(
        (l) => !labels.some((x) => (typeof x === "string" ? x === l : x.test(l))),
      )) {
        await expect(nav.getByRole("link", { name: other })).toHaveCount(0);
      }
    });
  }

  test("admin (who is also ops in the US demo) sees admin and ops sections", async ({ page }) => {
    await useSession(page, staff("shop-us", "admin"), { landing: true });
    const nav = page.getByRole("navigation", { name: "Main navigation" });
    await expect(nav.getByRole("link")).toHaveText([INBOX, "Queue", "Decided", "Executions", "Audit", "Admin"]);
  });

  // Each person lands on their own work: reviewers the queue, ops the executions, auditors the audit, admins
  // Admin; with several roles deciding wins, then ops (the US demo admin is also ops). The rule is landingPath's
  // (unit-tested); here, that the form's sign-in lands there, and that every role's session is sent there from "/".
  test("reviewer of shop-us lands on /queue after signing in through the form, and again from /", async ({ page }) => {
    await signIn(page, staff("shop-us", "reviewer"));
    await expect(page).toHaveURL(/\/queue$/);
    await page.goto("/");
    await expect(page).toHaveURL(/\/queue$/);
  });

  test("every role's session is sent from / to its own work", async ({ browser, baseURL }) => {
    for (const [tenant, role, landing] of [
      ["shop-us", "reviewer", "/queue"],
      ["shop-us", "ops", "/executions"],
      ["shop-us", "auditor", "/audit"],
      ["tienda-es", "admin", "/admin"],
      ["shop-us", "admin", "/executions"],
    ] as const) {
      const context = await browser.newContext({ baseURL });
      const page = await context.newPage();
      await useSession(page, staff(tenant, role));
      const res = await context.request.get("/", { maxRedirects: 0 });
      expect([res.status(), new URL(res.headers().location ?? "", baseURL).pathname], `${role} of ${tenant}`).toEqual([
        307,
        landing,
      ]);
      await context.close();
    }
  });

  test("the sign-in page names the product and has a favicon", async ({ page }) => {
    await page.goto("/sign-in");
    await expect(page.locator("main")).toContainText("Approval Gateway");
    const icon = await page.locator('link[rel="icon"]').first().getAttribute("href");
    expect(icon).toBeTruthy();
    const res = await page.request.get(icon!);
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toContain("image/svg+xml");
  });

  test("a section outside the role is refused even by direct URL", async ({ page }) => {
    await useSession(page, staff("shop-us", "reviewer"));
    for (const path of ["/audit", "/admin", "/executions"]) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/forbidden$/);
      await expect(page.getByRole("heading", { name: "Not allowed" })).toBeVisible();
    }
  });

  test("before the page is hydrated the form cannot send the password in a URL", async ({ page }) => {
    const who = staff("shop-us", "ops");
    // No JavaScript reaches the page: the form is what the server rendered.
    await page.route("**/_next/static/**/*.js", (route) => route.abort());
    await page.goto("/sign-in");
    await expect(page.getByRole("button", { name: /^(Sign in|Entrar)$/, exact: true })).toBeDisabled();
    await page.getByLabel(/^(Email|Correo electrónico)$/).fill(who.email);
    await page.getByLabel(/^(Password|Contraseña)$/).fill(who.password);
    await page.getByLabel(/^(Password|Contraseña)$/).press("Enter"); // implicit submission, if the browser makes one
    await page.waitForLoadState("load");
    expect(page.url()).not.toContain("password=");
    // Even a forced native submit (no button involved) posts the fields; nothing lands in the URL.
    await page.getByLabel(/^(Password|Contraseña)$/).fill(who.password);
    await Promise.all([
      page.waitForLoadState("load"),
      page
        .locator("main form")
        .first()
        .evaluate((f: HTMLFormElement) => f.submit()),
    ]);
    await expect(page).toHaveURL(/\/sign-in/);
    expect(page.url()).not.toContain("password=");
    expect(page.url()).not.toContain(encodeURIComponent(who.password));
  });

  test("a wrong password shows an error and creates no session", async ({ page, context }) => {
    const who = staff("shop-us", "ops");
    await page.goto("/sign-in");
    await page.getByLabel("Email").fill(who.email);
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.locator("#sign-in-error")).toContainText("Sign-in failed");
    const cookies = await context.cookies();
    expect(cookies.some((c) => c.name.includes("session-token"))).toBe(false);
    await page.goto("/queue");
    await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fqueue/);
    // The failure is counted against the account (the lockout), without revealing it on screen.
    const failed = await withDb(
      async (db) =>
        (await db.query(`SELECT "failedLoginCount" FROM "StaffUser" WHERE email = $1`, [who.email])).rows[0],
    );
    expect(failed.failedLoginCount).toBeGreaterThanOrEqual(1);
  });

  test("an unknown email gets the same answer as a wrong password", async ({ page }) => {
    await page.goto("/sign-in");
    await page.getByLabel("Email").fill("nobody@shop-us.test");
    await page.getByLabel("Password").fill("whatever-password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.locator("#sign-in-error")).toContainText("Sign-in failed");
  });

  test("signed-out visits to dashboard URLs go to sign-in and come back after it", async ({ page }) => {
    // Sent to sign-in before anything renders (proxy.ts, "/" by its page), with the way back.
    for (const path of [
      "/queue",
      "/executions",
      "/audit",
      "/admin",
      "/admin/staff/00000000-0000-4000-a000-000000000000",
      "/",
    ]) {
      const res = await page.request.get(path, { maxRedirects: 0 });
      expect(res.status(), path).toBe(307);
      const to = new URL(res.headers().location ?? "", "http://x");
      expect(to.pathname, path).toBe("/sign-in");
      if (path !== "/") expect(to.searchParams.get("callbackUrl"), path).toBe(path);
    }
    await page.goto("/audit");
    await page.getByLabel("Email").fill(staff("shop-us", "auditor").email);
    await page.getByLabel("Password").fill(staff("shop-us", "auditor").password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL(/\/audit(\?tz=[^&]+)?$/);
  });

  test("a malformed session cookie is treated as signed out, without an error page", async ({ context, page }) => {
    await context.addCookies([
      { name: "next-auth.session-token", value: "garbage.not.a.jwt", url: "http://localhost:3100" },
    ]);
    const res = await page.goto("/queue");
    await expect(page).toHaveURL(/\/sign-in/);
    expect(res?.status()).toBeLessThan(500);
  });
});

test.describe("tenancy and errors", () => {
  test("a tenant-A admin opening a tenant-B staff URL gets not-found", async ({ page }) => {
    const foreignId = await withDb(
      async (db) =>
        (
          await db.query(
            `SELECT s.id FROM "StaffUser" s JOIN "Tenant" t ON t.id = s."tenantId" WHERE t.slug = 'shop-us' LIMIT 1`,
          )
        ).rows[0].id as string,
    );
    const ownId = await withDb(
      async (db) =>
        (
          await db.query(
            `SELECT s.id FROM "StaffUser" s JOIN "Tenant" t ON t.id = s."tenantId" WHERE t.slug = 'tienda-es' LIMIT 1`,
          )
        ).rows[0].id as string,
    );
    await useSession(page, staff("tienda-es", "admin"));
    await page.goto(`/admin/staff/${ownId}`);
    await expect(page.getByRole("heading", { level: 1 })).not.toHaveText(/No encontrado/);
    const res = await page.goto(`/admin/staff/${foreignId}`);
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "No encontrado" })).toBeVisible();
    await expect(page.locator("body")).not.toContainText("shop-us.test");
  });

  test("unknown routes give a clear not-found page without a stack", async ({ page }) => {
    const res = await page.goto("/no-such-page");
    expect(res?.status()).toBe(404);
    await expect(page.locator("body")).not.toContainText(/at \w+ \(|node_modules|Error:/);
  });

  test("bad credentials posted straight to next-auth give a clear error, no stack", async ({ request }) => {
    const csrf = await (await request.get("/api/auth/csrf")).json();
    const res = await request.post("/api/auth/callback/credentials", {
      form: { csrfToken: csrf.csrfToken, email: "ops@shop-us.test", password: "wrong", json: "true" },
      maxRedirects: 0,
    });
    expect(res.status()).toBeLessThan(500);
    const body = await res.text();
    expect(body).not.toMatch(/at \w+ \(|node_modules|prisma/i);
  });
});

test.describe("languages", () => {
  test("the EUR tenant's staff get the Spanish UI with Spanish formatting", async ({ page }) => {
    await useSession(page, staff("tienda-es", "admin"));
    await page.goto("/admin");
    await expect(page.getByRole("heading", { level: 1, name: "Administración" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Navegación principal" })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "es-ES");
    // 50.000 minor units of EUR formatted for es-ES.
    await expect(page.getByText("500,00 €")).toBeVisible();
    await expect(page.getByRole("button", { name: "Cerrar sesión" })).toBeVisible();
  });

  test("the USD tenant's staff get English", async ({ page }) => {
    await useSession(page, staff("shop-us", "admin"));
    await page.goto("/admin");
    await expect(page.getByRole("heading", { level: 1, name: "Administration" })).toBeVisible();
    await expect(page.getByText("$1,000.00")).toBeVisible();
  });
});
