// Step-up that lasts its window (docs/design.md): once the session's window has passed, the first approval
// asks for the password; that step-up renews the window, so the next approval asks nothing. The history
// names what happened for each approval (password, then session).
import { expect, test, type Page } from "@playwright/test";
import { signIn, staff } from "./support/auth";
import { freshOrder, withDb } from "./support/db";
import { proposeRefund } from "./support/gateway";

const reviewer = staff("shop-us", "reviewer", 1);
const methodsOf = (ids: string[]) =>
  withDb(async (c) => {
    const rows = (
      await c.query(`SELECT "proposalId", "authMethod" FROM "Approval" WHERE "proposalId" = ANY($1::uuid[])`, [ids])
    ).rows;
    return ids.map((id) => rows.find((r) => r.proposalId === id)?.authMethod);
  });

async function approve(page: Page, proposalId: string, password?: string) {
  await page.goto(`/proposals/${proposalId}`);
  await page.getByRole("button", { name: "Approve", exact: true }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByTestId("confirm-text")).toBeVisible();
  const field = dialog.getByLabel("Password");
  if (password) await field.fill(password);
  else await expect(field).toHaveCount(0);
  await dialog.getByRole("button", { name: "Approve refund" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Approved." })).toBeVisible();
}

test("step-up is asked once per window: the password renews it, the next approval asks nothing", async ({ page }) => {
  const ids: string[] = [];
  for (const amount of [2_100, 2_200, 2_300])
    ids.push(await proposeRefund("shop-us", await freshOrder("shop-us", amount)));
  await signIn(page, reviewer);
  // Ten minutes pass (the US tenant's window is 5): the session's window, kept server-side, is moved back.
  await withDb((c) =>
    c.query(
      `UPDATE "StaffSession" SET "stepUpAt" = now() - interval '10 minutes' WHERE "staffUserId" = (SELECT id FROM "StaffUser" WHERE email = $1)`,
      [reviewer.email],
    ),
  );

  await approve(page, ids[0]!, reviewer.password); // asked: the window had passed
  await approve(page, ids[1]!); // not asked: the step-up renewed it
  await approve(page, ids[2]!);
  expect(await methodsOf(ids)).toEqual(["password", "session", "session"]);

  // The history says so, in words.
  await page.goto(`/proposals/${ids[1]}`);
  await expect(page.getByTestId("outcome").getByText(/session confirmed within the step-up window/)).toBeVisible();
  const events = await withDb(
    async (c) =>
      (
        await c.query(
          `SELECT "authMethod", data->>'windowOpenedBy' AS opened FROM "AuditEvent" WHERE action = 'proposal:approve' AND "proposalId" = $1`,
          [ids[1]],
        )
      ).rows,
  );
  expect(events).toEqual([{ authMethod: "session", opened: "password" }]);
});
