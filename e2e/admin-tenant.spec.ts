// Admins edit their own tenant's settings in Admin (PATCH /api/admin/tenant, docs/admin-api.md): the time zone changed
// from the keyboard is saved (a reload shows it, the database holds it, audited before → after); a bad value is
// refused with the field's message and nothing changes; the currency is read-only once the tenant has orders.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { useSession, staff } from "./support/auth";
import { withDb } from "./support/db";

const US = "shop-us";
test.describe.configure({ mode: "serial" });

type TenantRow = { name: string; locale: string; timeZone: string; currency: string };
const tenantRow = () =>
  withDb(
    async (db) =>
      (await db.query(`SELECT name, locale, "timeZone", currency FROM "Tenant" WHERE slug = $1`, [US]))
        .rows[0] as TenantRow,
  );

async function expectAxeClean(page: Page) {
  const result = await new AxeBuilder({ page }).analyze();
  expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

let original: TenantRow;
let startedAt: Date;
test.beforeAll(async () => {
  startedAt = new Date();
  original = await tenantRow();
});
// Other specs show times in this tenant's zone: put it back whatever happened here, and the bulk-message policy
// the zone change made keep its zone (tests/integration/admin-bulk-policy.test.ts) back to following it.
test.afterAll(async () => {
  await withDb(async (db) => {
    await db.query(`UPDATE "Tenant" SET name = $2, locale = $3, "timeZone" = $4 WHERE slug = $1`, [
      US,
      original.name,
      original.locale,
      original.timeZone,
    ]);
    await db.query(
      `DELETE FROM "BulkMessagePolicy" WHERE "tenantId" = (SELECT id FROM "Tenant" WHERE slug = $1) AND "updatedAt" >= $2`,
      [US, startedAt],
    );
  });
});

test("an admin changes the time zone from the keyboard: saved across a reload, audited; a bad value is refused with its message", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await useSession(page, staff(US, "admin"));
  await page.goto("/admin");
  const section = page.getByRole("region", { name: "Tenant settings" });
  const timeZone = section.getByLabel("Time zone");
  await expect(section.getByLabel("Name")).toHaveValue(original.name);
  await expect(timeZone).toHaveValue(original.timeZone);
  // The demo tenant has orders: its currency is shown, fixed.
  await expect(section.getByLabel("Currency")).toHaveValue(original.currency.trim());
  await expect(section.getByLabel("Currency")).toHaveAttribute("readonly", "");
  await expect(section).toContainText("Fixed: the tenant has orders");
  await expectAxeClean(page);

  // Keyboard only: Tab from the name through the locale to the time zone, type, Enter submits.
  await section.getByLabel("Name").focus();
  await page.keyboard.press("Tab");
  await expect(section.getByLabel("Locale")).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(timeZone).toBeFocused();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("Mars/Olympus");
  await page.keyboard.press("Enter");
  const alert = section.getByRole("alert");
  await expect(alert).toHaveText("Not a time zone. Use an IANA name such as Europe/Berlin or America/New_York.");
  await expect(timeZone).toHaveAttribute("aria-invalid", "true");
  await expect(timeZone).toBeFocused();
  await expect(timeZone).toHaveAttribute("aria-describedby", /tenant-settings-error/);
  await expectAxeClean(page);
  expect((await tenantRow()).timeZone).toBe(original.timeZone);

  // A valid zone: saved, the refusal gone.
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("America/Chicago");
  await page.keyboard.press("Enter");
  await expect(section.getByRole("status")).toHaveText("Settings saved.");
  await expect(section.getByRole("alert")).toHaveCount(0);
  await expect(timeZone).toHaveValue("America/Chicago");
  await expect(timeZone).not.toHaveAttribute("aria-invalid", "true");
  await expectAxeClean(page);

  await page.reload();
  await expect(page.getByRole("region", { name: "Tenant settings" }).getByLabel("Time zone")).toHaveValue(
    "America/Chicago",
  );
  expect(await tenantRow()).toEqual({ ...original, timeZone: "America/Chicago" });
  const events = await withDb(
    async (db) =>
      (
        await db.query(
          `SELECT e.data FROM "AuditEvent" e JOIN "Tenant" t ON t.id = e."tenantId" WHERE t.slug = $1 AND e.action = 'admin:update_tenant' ORDER BY e.pos DESC LIMIT 1`,
          [US],
        )
      ).rows,
  );
  expect(events[0].data).toMatchObject({
    before: { timeZone: original.timeZone },
    after: { timeZone: "America/Chicago" },
  });
});

test("an empty name is refused with its message, and the name is kept", async ({ page }) => {
  await useSession(page, staff(US, "admin"));
  await page.goto("/admin");
  const section = page.getByRole("region", { name: "Tenant settings" });
  const name = section.getByLabel("Name");
  await name.fill("   ");
  await section.getByRole("button", { name: "Save settings" }).click();
  await expect(section.getByRole("alert")).toHaveText("Enter a name of 1 to 120 characters.");
  await expect(name).toHaveAttribute("aria-invalid", "true");
  expect((await tenantRow()).name).toBe(original.name);
});
