import { expect, test, type Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { signIn, staff, useSession } from "./support/auth";
import { freshOrder, withDb } from "./support/db";
import { proposeRefund } from "./support/gateway";
import { hydrated } from "./support/ui";

// An admin invites a reviewer; the invitee opens the setup link in a fresh browser,
// sets a password, signs in and approves a proposal; the admin disables them and their open session is
// refused on the next request. Also: a role refusal is audited; admin pages pass axe and work by keyboard.

test.describe.configure({ mode: "serial" });

const US = "shop-us";
const inviteeEmail = `e2e.reviewer.${Date.now().toString(36)}@shop-us.test`;
const inviteePassword = "invitee-password-2026!";

async function axe(page: Page) {
  const result = await new AxeBuilder({ page }).analyze();
  expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

test("invite → setup link in a fresh browser → password → sign in → approve → disabled → the open session is refused", async ({
  page,
  browser,
}) => {
  // Two browsers, an agent run and a dozen page loads: past the default minute on a loaded machine.
  test.setTimeout(180_000);
  // The admin invites a reviewer, using the keyboard for the form.
  await signIn(page, staff(US, "admin"));
  await page.goto("/admin");
  await expect(page.getByRole("heading", { name: "Administration" })).toBeVisible();
  await axe(page);
  const invite = page.getByRole("region", { name: "Invite a person" });
  await invite.getByLabel("Email").fill(inviteeEmail);
  await page.keyboard.press("Tab");
  await page.keyboard.type("Erin Invitee");
  await invite.getByRole("checkbox", { name: "Reviewer" }).check();
  await invite.getByRole("button", { name: "Invite" }).press("Enter");
  const shown = invite.getByTestId("shown-once");
  await expect(shown).toContainText("/setup/");
  const setupUrl = (await shown.textContent())!.trim();
  const stored = await withDb(
    async (db) =>
      (
        await db.query(
          `SELECT t."tokenHash", u.roles, u."passwordHash" FROM "StaffSetupToken" t JOIN "StaffUser" u ON u.id = t."staffUserId" WHERE u.email = $1`,
          [inviteeEmail],
        )
      ).rows,
  );
  expect(stored).toHaveLength(1);
  expect(stored[0].passwordHash).toBeNull();
  expect(JSON.stringify(stored)).not.toContain(setupUrl.split("/setup/")[1]);
  await expect(page.getByRole("row", { name: new RegExp(inviteeEmail.replace(/\./g, "\\.")) })).toContainText(
    "setup pending",
  );

  // The invitee, in a fresh browser, sets a password through the link.
  const invitee = await browser.newContext();
  const ip = await invitee.newPage();
  await ip.goto(setupUrl);
  await expect(ip.getByRole("heading", { name: "Set up your account" })).toBeVisible();
  // A tenant name ending in a full stop does not make a sentence end in two.
  await expect(
    ip.getByText("Welcome, Erin Invitee. Example Shop Inc. invited you: choose a password to join."),
  ).toBeVisible();
  await axe(ip);
  await ip.getByLabel("New password").fill(inviteePassword);
  await ip.getByLabel("Repeat the password").fill(inviteePassword);
  await ip.getByRole("button", { name: "Set password" }).click();
  // Signed in with the new password, they land on their own work (a reviewer: the queue), not on sign-in.
  await expect(ip).toHaveURL(/\/queue$/);
  await expect(ip.getByTestId("who").first()).toContainText("Erin Invitee");
  // The link is spent.
  await ip.goto(setupUrl);
  await expect(ip.locator("main").getByRole("alert")).toContainText("no longer valid");

  // They approve an agent's proposal.
  const order = await freshOrder(US, 2_500);
  const proposalId = await proposeRefund(US, order);
  await ip.goto(`/proposals/${proposalId}`);
  await ip.getByRole("button", { name: "Approve" }).click();
  await ip.getByRole("dialog").getByRole("button", { name: "Approve refund" }).click();
  await expect(ip.locator("main").getByRole("status")).toContainText("Approved.");
  const approver = await withDb(
    async (db) =>
      (
        await db.query(
          `SELECT u.email FROM "Approval" a JOIN "StaffUser" u ON u.id = a."approverId" WHERE a."proposalId" = $1`,
          [proposalId],
        )
      ).rows,
  );
  expect(approver.map((r) => r.email)).toEqual([inviteeEmail]);

  // A reviewer may not use the admin API: 403, and the refusal is an audit event.
  const denied = await ip.request.post("/api/admin/staff", {
    data: { email: "x@shop-us.test", name: "X", roles: ["admin"] },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(denied.status()).toBe(403);
  const deniedEvents = await withDb(
    async (db) =>
      (
        await db.query(
          `SELECT e.data FROM "AuditEvent" e JOIN "StaffUser" u ON u.id::text = e."actorId" WHERE u.email = $1 AND e.action = 'access:denied'`,
          [inviteeEmail],
        )
      ).rows,
  );
  expect(deniedEvents).toHaveLength(1);
  expect(deniedEvents[0].data).toMatchObject({ permission: "admin:manage", path: "POST /api/admin/staff" });
  // A second refusal in the same minute is counted, not written again; the admin page refused is its own event.
  expect(
    (await ip.request.post("/api/admin/staff", { data: {}, headers: { origin: new URL(page.url()).origin } })).status(),
  ).toBe(403);
  await ip.goto("/admin");
  await expect(ip).toHaveURL(/\/forbidden/);
  const denials = await withDb(
    async (db) =>
      (
        await db.query(
          `SELECT e.data FROM "AuditEvent" e JOIN "StaffUser" u ON u.id::text = e."actorId" WHERE u.email = $1 AND e.action = 'access:denied' ORDER BY e.pos`,
          [inviteeEmail],
        )
      ).rows,
  );
  const windows = await withDb(
    async (db) =>
      (
        await db.query(
          `SELECT w.target, w.count FROM "AccessDenialWindow" w JOIN "StaffUser" u ON u.id = w."staffUserId" WHERE u.email = $1`,
          [inviteeEmail],
        )
      ).rows,
  );
  const apiWindows = windows.filter((w) => w.target.endsWith("POST /api/admin/staff"));
  // Two API refusals, one audit event per minute window (two only if the minute turned in between).
  expect(apiWindows.reduce((sum, w) => sum + Number(w.count), 0)).toBe(2);
  expect(denials.filter((d) => d.data.path === "POST /api/admin/staff")).toHaveLength(apiWindows.length);
  expect(denials.filter((d) => d.data.path === null && d.data.permission === "admin:manage")).toHaveLength(1);
  expect((await ip.request.get("/api/proposals")).status()).toBe(200);

  // The admin disables them from their staff page.
  await page.reload();
  await (await hydrated(page.getByRole("link", { name: "Erin Invitee" }))).click();
  await expect(page.getByRole("heading", { name: "Erin Invitee" })).toBeVisible();
  await axe(page);
  await page.getByRole("button", { name: "Disable account" }).click();
  await expect(page.locator("main").getByRole("status")).toContainText("Account disabled");

  // Their open session is refused on the next request, API and page alike.
  expect((await ip.request.get("/api/proposals")).status()).toBe(401);
  await ip.goto("/queue");
  await expect(ip).toHaveURL(/\/sign-in/);
  const audit = await withDb(
    async (db) =>
      (
        await db.query(
          // This invitee's events only: other specs change other people in the same tenant.
          `SELECT action, data FROM "AuditEvent" WHERE action IN ('admin:invite_staff', 'admin:update_staff', 'auth:complete_setup')
             AND "tenantId" = (SELECT id FROM "Tenant" WHERE slug = $1)
             AND data->'target'->>'id' = (SELECT id::text FROM "StaffUser" WHERE email = $2) ORDER BY pos`,
          [US, inviteeEmail],
        )
      ).rows,
  );
  expect(audit.map((a) => a.action)).toEqual(["admin:invite_staff", "auth:complete_setup", "admin:update_staff"]);
  expect(audit[2].data).toMatchObject({ before: { disabled: false }, after: { disabled: true } });
  await invitee.close();
});

test("an admin cannot change their own roles and the last admin cannot be disabled from the API", async ({ page }) => {
  await useSession(page, staff(US, "admin"));
  const me = await withDb(
    async (db) =>
      (await db.query(`SELECT id FROM "StaffUser" WHERE email = $1`, [staff(US, "admin").email])).rows[0].id as string,
  );
  await page.goto(`/admin/staff/${me}`);
  await expect(page.getByText("You cannot change your own roles")).toBeVisible();
  await expect(page.getByRole("button", { name: "Save roles" })).toBeDisabled();
  const origin = new URL(page.url()).origin;
  const own = await page.request.patch(`/api/admin/staff/${me}`, { data: { roles: ["ops"] }, headers: { origin } });
  expect(own.status()).toBe(403);
  expect((await own.json()).error.reason).toBe("own_roles");
  const crossSite = await page.request.post("/api/admin/staff", {
    data: { email: "y@shop-us.test", name: "Y", roles: ["ops"] },
    headers: { origin: "https://evil.example" },
  });
  expect(crossSite.status()).toBe(403);
});
