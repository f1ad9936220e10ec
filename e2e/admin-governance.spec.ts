import { expect, test } from "@playwright/test";
import { signIn, staff } from "./support/auth";
import { withDb } from "./support/db";

// The second-admin rule in a real browser (docs/admin-api.md "Changes that need a second admin"): a single
// admin is told what they cannot do alone; admin A proposes granting admin to a reviewer → it waits; A cannot
// approve it; admin B approves it in their own session → it takes effect, audited. Then A loosens the bulk-message
// policy from its form: it waits too, and B's approval applies it.

const US = "shop-us";
const rolesOf = (email: string) =>
  withDb(
    async (db) =>
      (await db.query(`SELECT roles::text[] AS roles FROM "StaffUser" WHERE email = $1`, [email])).rows[0]
        .roles as string[],
  );

const thresholdOf = (slug: string) =>
  withDb(
    async (db) =>
      ((
        await db.query(
          `SELECT "recipientsThreshold" FROM "BulkMessagePolicy" WHERE "tenantId" = (SELECT id FROM "Tenant" WHERE slug = $1)`,
          [slug],
        )
      ).rows[0]?.recipientsThreshold as number | undefined) ?? null,
  );

test("admin A proposes granting admin → waits (A cannot approve) → admin B approves → effective; a bulk-policy loosening from its form waits the same way", async ({
  page,
  browser,
}) => {
  const auditor = staff(US, "auditor");
  const reviewer = staff(US, "reviewer", 0);
  try {
    await signIn(page, staff(US, "admin"));
    await page.goto("/admin");
    const section = page.getByRole("region", { name: "Waiting for a second admin" });
    // Alone: told plainly what cannot be done and how to get out of it.
    await expect(section.getByTestId("single-admin")).toContainText("No other admin can approve your changes");
    await expect(section.getByTestId("single-admin")).toContainText(`npm run admin:grant -- --tenant ${US}`);

    // A second admin (directly in the database, like the seed's admins).
    await withDb((db) =>
      db.query(`UPDATE "StaffUser" SET roles = ARRAY['admin','auditor']::"Role"[] WHERE email = $1`, [auditor.email]),
    );
    const reviewerId = await withDb(
      async (db) =>
        (await db.query(`SELECT id FROM "StaffUser" WHERE email = $1`, [reviewer.email])).rows[0].id as string,
    );
    await page.goto(`/admin/staff/${reviewerId}`);
    await page.getByRole("checkbox", { name: "Admin" }).check();
    await page.getByRole("button", { name: "Save roles" }).click();
    await expect(page.locator("main").getByRole("status")).toContainText("This waits for a second admin");
    expect(await rolesOf(reviewer.email)).toEqual(["reviewer"]);

    await page.goto("/admin");
    await expect(section.getByTestId("single-admin")).toHaveCount(0);
    const row = section.getByRole("row", { name: /Grant admin/ });
    await expect(row).toContainText(reviewer.email);
    await expect(row).toContainText("You proposed this");
    await expect(row.getByRole("button", { name: /^Approve/ })).toHaveCount(0);
    // Nor through the API.
    const changeId = await row.getAttribute("data-change");
    const own = await page.request.post(`/api/admin/changes/${changeId}/approve`, {
      data: {},
      headers: { origin: new URL(page.url()).origin },
    });
    expect(own.status()).toBe(403);
    expect((await own.json()).error.reason).toBe("own_change");

    const second = await browser.newContext();
    const p2 = await second.newPage();
    await signIn(p2, auditor);
    await p2.goto("/admin");
    await p2.getByRole("button", { name: `Approve: Grant admin (${reviewer.email})` }).click();
    await expect(p2.locator("main").getByRole("status").first()).toContainText("Approved and applied.");
    await expect(p2.getByRole("region", { name: "Waiting for a second admin" })).toContainText(
      "Nothing waits for a second admin.",
    );
    expect(await rolesOf(reviewer.email)).toEqual(["admin", "reviewer"]);

    const audit = await withDb(async (db) =>
      (
        await db.query(
          `SELECT action, "actorId" FROM "AuditEvent" WHERE action IN ('admin:propose_change', 'admin:update_staff', 'admin:approve_change')
           AND "tenantId" = (SELECT id FROM "Tenant" WHERE slug = $1) ORDER BY pos`,
          [US],
        )
      ).rows.map((r) => r.action),
    );
    expect(audit.slice(-3)).toEqual(["admin:propose_change", "admin:update_staff", "admin:approve_change"]);

    // A loosening of the bulk-message policy, from its form (more recipients before a second reviewer), waits the same
    // way; the second admin reads it before → after and approves it.
    await page.goto("/admin/segments");
    const policy = page.getByRole("form", { name: "Bulk-message policy" });
    await policy.getByLabel("Two reviewers from this many recipients").fill("500");
    await policy.getByRole("button", { name: "Save policy" }).click();
    await expect(policy.getByRole("status")).toContainText("Waiting for a second admin");
    expect((await thresholdOf(US)) ?? 100).toBe(100); // the default (no row) or a row another spec left
    await p2.goto("/admin");
    const loosening = p2.getByRole("row", { name: /Loosen the bulk-message policy/ });
    await expect(loosening).toContainText("recipientsThreshold 100 → 500");
    await loosening.getByRole("button", { name: /^Approve/ }).click();
    await expect(p2.locator("main").getByRole("status").first()).toContainText("Approved and applied.");
    expect(await thresholdOf(US)).toBe(500);
    await second.close();
  } finally {
    await withDb(async (db) => {
      await db.query(
        `UPDATE "StaffUser" SET roles = ARRAY['auditor']::"Role"[], "adminSince" = NULL, "adminGrantedByIds" = '{}' WHERE email = $1`,
        [auditor.email],
      );
      await db.query(
        `UPDATE "StaffUser" SET roles = ARRAY['reviewer']::"Role"[], "adminSince" = NULL, "adminGrantedByIds" = '{}' WHERE email = $1`,
        [reviewer.email],
      );
      await db.query(`UPDATE "AdminChange" SET status = 'cancelled' WHERE status = 'pending'`);
      await db.query(`DELETE FROM "BulkMessagePolicy" WHERE "tenantId" = (SELECT id FROM "Tenant" WHERE slug = $1)`, [
        US,
      ]);
    });
  }
});
