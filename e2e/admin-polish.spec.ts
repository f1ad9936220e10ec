// Admin polish: the app's own dialog instead of the browser's confirm() (page.on("dialog") must never fire),
// copy buttons for a new agent key and an invited person's setup link (read back from the real clipboard), and
// the two-reviewer threshold typed in major units of the tenant's currency, stored in minor units — with a bad
// amount refused in the form, nothing saved.
import { expect, test } from "@playwright/test";
import { staff, useSession } from "./support/auth";
import { withDb } from "./support/db";

test.describe.configure({ mode: "serial" });
const US = "shop-us";
test.use({ permissions: ["clipboard-read", "clipboard-write"] });

const major = (minor: number) => `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, "0")}`;
const threshold = () =>
  withDb(
    async (db) =>
      (await db.query(`SELECT "policyVersion", "dualApprovalThresholdMinor" FROM "Tenant" WHERE slug = $1`, [US]))
        .rows[0] as {
        policyVersion: number;
        dualApprovalThresholdMinor: number;
      },
  );

test("a new agent key is copied with its button and revoked through the app's dialog, never confirm()", async ({
  page,
}) => {
  const nativeDialogs: string[] = [];
  page.on("dialog", (d) => {
    nativeDialogs.push(d.type());
    void d.dismiss();
  });
  await useSession(page, staff(US, "admin"));
  await page.goto("/admin");
  const label = `E2E copy bot ${Date.now().toString(36)}`;
  const form = page.getByRole("region", { name: "Issue an agent key" });
  await form.getByLabel("Channel").selectOption("web_support");
  await form.getByLabel("Label").fill(label);
  await form.getByRole("button", { name: "Issue key" }).click();
  const key = (await form.getByTestId("shown-once").textContent())!.trim();
  expect(key).toMatch(/^agk_/);

  // Copy: the clipboard holds the key, the button says "Copied".
  await form.getByRole("button", { name: "Copy Agent key" }).click();
  await expect(form.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);

  // Revoke: the app's dialog asks; Cancel keeps the key, the dialog's own button revokes it.
  await page.reload();
  const row = page.getByRole("row", { name: new RegExp(label) });
  await row.getByRole("button", { name: `Revoke key ${label}` }).click();
  const dialog = page.getByRole("dialog", { name: "Revoke this agent key?" });
  await expect(dialog).toContainText(`Revoke the key “${label}”?`);
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(row).toContainText("active");

  await row.getByRole("button", { name: `Revoke key ${label}` }).click();
  await dialog.getByRole("button", { name: "Revoke key" }).click();
  await expect(row).toContainText("revoked");
  const revoked = await withDb(
    async (db) =>
      (await db.query(`SELECT "revokedAt" FROM "AgentKey" WHERE name = $1`, [label])).rows[0] as {
        revokedAt: Date | null;
      },
  );
  expect(revoked.revokedAt).not.toBeNull();
  expect(nativeDialogs).toEqual([]);
});

test("an invited person's setup link is copied with its button", async ({ page }) => {
  await useSession(page, staff(US, "admin"));
  await page.goto("/admin");
  const invite = page.getByRole("region", { name: "Invite a person" });
  await invite.getByLabel("Email").fill(`e2e.copy.${Date.now().toString(36)}@shop-us.test`);
  await invite.getByLabel("Name").fill("Casey Copy");
  await invite.getByRole("checkbox", { name: "Auditor" }).check();
  await invite.getByRole("button", { name: "Invite" }).click();
  const link = (await invite.getByTestId("shown-once").textContent())!.trim();
  expect(link).toContain("/setup/");
  await invite.getByRole("button", { name: /^Copy One-time setup link/ }).click();
  await expect(invite.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
});

test("the two-reviewer threshold is typed in dollars and stored in cents; a bad amount is refused in the form", async ({
  page,
  browser,
}) => {
  const start = await threshold();
  await useSession(page, staff(US, "admin"));
  await page.goto("/admin");
  const policy = page.getByRole("region", { name: /Tenant policy \(version \d+\)/ });
  const field = policy.getByLabel(/Two reviewers from \(USD/);
  // The stored value is shown in major units.
  await expect(field).toHaveValue(major(start.dualApprovalThresholdMinor));

  // Too many decimals: the field says why, saving is refused in the form, nothing is stored.
  await field.fill("999.995");
  await expect(policy.getByTestId("policy-dualApprovalThresholdMinor-amount")).toHaveText(
    "USD has fewer decimals than that: such as 12.50.",
  );
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await policy.getByRole("button", { name: "Save as a new version" }).click();
  await expect(policy.getByRole("alert")).toContainText("Some amounts cannot be read");
  await expect(field).toBeFocused();
  expect(await threshold()).toEqual(start);

  // 999.99 USD (a tightening: active at once) is 99999 cents, exactly.
  await field.fill("999.99 USD");
  await expect(policy.getByTestId("policy-dualApprovalThresholdMinor-amount")).toContainText(
    "99999 USD in minor units",
  );
  await expect(policy.locator('tr[data-field="dualApprovalThresholdMinor"]')).toContainText("$999.99");
  await policy.getByRole("button", { name: "Save as a new version" }).click();
  await expect(policy.getByRole("status")).toContainText(`Version ${start.policyVersion + 1} is now active.`);
  expect(await threshold()).toEqual({ policyVersion: start.policyVersion + 1, dualApprovalThresholdMinor: 99_999 });

  // Back to the demo's threshold: a loosening, so a second admin (the auditor, made admin for the moment) approves it.
  // (Made admin before the change is proposed: only an admin who held the role then may approve it.)
  const auditor = staff(US, "auditor");
  await withDb((db) =>
    db.query(`UPDATE "StaffUser" SET roles = ARRAY['auditor','admin']::"Role"[] WHERE email = $1`, [auditor.email]),
  );
  const second = await browser.newContext();
  try {
    await page.reload();
    await field.fill(major(start.dualApprovalThresholdMinor));
    await policy.getByRole("button", { name: "Save as a new version" }).click();
    await expect(page.locator("main").getByRole("status")).toContainText("waits for a second admin");
    const p2 = await second.newPage();
    await useSession(p2, auditor);
    await p2.goto("/admin");
    await p2.getByRole("button", { name: `Approve version ${start.policyVersion + 2}` }).click();
    await expect(p2.locator("main").getByRole("status")).toContainText(
      `Version ${start.policyVersion + 2} is now active.`,
    );
  } finally {
    await second.close();
    await withDb((db) =>
      db.query(`UPDATE "StaffUser" SET roles = ARRAY['auditor']::"Role"[] WHERE email = $1`, [auditor.email]),
    );
  }
  expect((await threshold()).dualApprovalThresholdMinor).toBe(start.dualApprovalThresholdMinor);
});
