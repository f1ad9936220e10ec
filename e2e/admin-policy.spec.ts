import { expect, test } from "@playwright/test";
import { signIn, staff } from "./support/auth";
import { withDb } from "./support/db";
import { hydrated } from "./support/ui";

// The policy form makes a new version with a diff; tightening applies at once; loosening waits
// for a second admin, who approves it in their own session.

test.describe.configure({ mode: "serial" });
const US = "shop-us";
/** The form takes amounts in major units of the tenant's currency (USD here): 100000 minor → "1000.00". */
const major = (minor: number) => `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, "0")}`;
const tenantPolicy = () =>
  withDb(
    async (db) =>
      (await db.query(`SELECT "policyVersion", "dualApprovalThresholdMinor" FROM "Tenant" WHERE slug = $1`, [US]))
        .rows[0] as {
        policyVersion: number;
        dualApprovalThresholdMinor: number | null;
      },
  );

test("tighten at once; loosen → waits → a second admin approves", async ({ page, browser }) => {
  const auditor = staff(US, "auditor");
  await withDb((db) =>
    db.query(`UPDATE "StaffUser" SET roles = ARRAY['auditor','admin']::"Role"[] WHERE email = $1`, [auditor.email]),
  );
  try {
    const start = await tenantPolicy();
    await signIn(page, staff(US, "admin"));
    await page.goto("/admin");
    const policy = page.getByRole("region", { name: /Tenant policy \(version \d+\)/ });
    const threshold = policy.getByLabel(/Two reviewers from/);
    const lower = start.dualApprovalThresholdMinor! - 1_000;
    await threshold.fill(major(lower));
    await expect(policy.locator('tr[data-field="dualApprovalThresholdMinor"]')).toContainText("tighter");
    await policy.getByRole("button", { name: "Save as a new version" }).click();
    await expect(policy.getByRole("status")).toContainText(`Version ${start.policyVersion + 1} is now active.`);
    expect(await tenantPolicy()).toEqual({ policyVersion: start.policyVersion + 1, dualApprovalThresholdMinor: lower });

    await page.reload();
    const raised = start.dualApprovalThresholdMinor! + 5_000;
    await page.getByLabel(/Two reviewers from/).fill(major(raised));
    await expect(page.getByText("This loosens a control")).toBeVisible();
    await page.getByRole("button", { name: "Save as a new version" }).click();
    await expect(page.locator("main").getByRole("status")).toContainText("waits for a second admin");
    expect((await tenantPolicy()).dualApprovalThresholdMinor).toBe(lower);
    await page.reload();
    await expect(page.getByText("You proposed this change")).toBeVisible();

    const second = await browser.newContext();
    const p2 = await second.newPage();
    await signIn(p2, auditor);
    await p2.goto("/admin");
    await p2.getByRole("button", { name: `Approve version ${start.policyVersion + 2}` }).click();
    await expect(p2.locator("main").getByRole("status")).toContainText(
      `Version ${start.policyVersion + 2} is now active.`,
    );
    expect(await tenantPolicy()).toEqual({
      policyVersion: start.policyVersion + 2,
      dualApprovalThresholdMinor: raised,
    });
    const audit = await withDb(async (db) =>
      (
        await db.query(
          // The tenant policy's own events (other specs set other policies: bulk messages, who confirms).
          `SELECT action FROM "AuditEvent" WHERE action IN ('admin:propose_policy', 'admin:approve_policy', 'admin:reject_policy')
           AND "tenantId" = (SELECT id FROM "Tenant" WHERE slug = $1) ORDER BY pos`,
          [US],
        )
      ).rows.map((r) => r.action),
    );
    expect(audit).toEqual(["admin:propose_policy", "admin:propose_policy", "admin:approve_policy"]);
    await second.close();

    // The change is on the audit and trace pages: who, before → after, both versions.
    await page.goto("/audit?action=admin%3Aapprove_policy");
    // Rows carry the stored action code (data-action); the cell shows its plain name.
    const row = page
      .getByRole("table", { name: /results|Resultados/i })
      .locator('tr[data-action="admin:approve_policy"]');
    await expect(row).toContainText("Policy change approved");
    await expect(row).toHaveCount(1);
    await (await hydrated(row.getByRole("link"))).click();
    const step = page.locator('li[data-action="admin:approve_policy"]');
    await expect(step).toBeVisible();
    await step.locator("summary").click();
    await expect(step.locator("pre")).toContainText(`"version": ${start.policyVersion + 2}`);
    await expect(step.locator("pre")).toContainText('"direction": "looser"');

    // Back to the starting threshold (a tightening: at once) so later specs see the demo policy.
    await page.goto("/admin");
    await page.getByLabel(/Two reviewers from/).fill(major(start.dualApprovalThresholdMinor!));
    await page.getByRole("button", { name: "Save as a new version" }).click();
    await expect(page.locator("main").getByRole("status")).toContainText("is now active");
  } finally {
    await withDb((db) =>
      db.query(`UPDATE "StaffUser" SET roles = ARRAY['auditor']::"Role"[] WHERE email = $1`, [auditor.email]),
    );
  }
});
