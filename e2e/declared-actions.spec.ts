// An admin-declared action end to end (issue #38 item 4; docs/action-kinds.md "Admin-declared actions"): admin A
// declares "issue store credit" through Admin → Actions → New; it waits, and A cannot approve it; admin B of the same
// tenant approves it on /admin/actions; the agent prepares it over HTTP with an order number only; the server asks the
// shop (a stand-in here, on the tenant's action endpoint's host) for the credit quote, and the reviewer sees exactly
// the fields the declaration picked from that answer — the customer and the amount the shop answered, not anything
// the model sent; the reviewer approves and the shop is asked to carry it out exactly once; A then retires it.
// Runs alone (the serial project): it declares a tool in shop-us's tool list (a unique name per run), makes the
// auditor a second admin for the time of the spec and sets the tenant's action endpoint.
import { randomBytes } from "node:crypto";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { signIn, staff, useSession } from "./support/auth";
import { freshOrder, withDb } from "./support/db";
import { agentCall, baseURL } from "./support/gateway";
import { startShopStandIn } from "./support/shop-stand-in";
import { hydrated } from "./support/ui";

const TENANT = "shop-us";
// What only the shop knows: the agent sends an order number, never these.
const QUOTE = { customer: { name: "Jane Quote" }, credit: { amount_minor: 1234, currency: "USD" }, note: "not picked" };
const origin = { origin: new URL(baseURL).origin };

/** Submits an admin form; when the server asks for the password (step-up), gives it and submits again. */
async function submitWithStepUp(scope: Locator | Page, button: string, password: string) {
  await scope.getByRole("button", { name: button, exact: true }).click();
  const stepUp = scope.getByLabel("Confirm with your password", { exact: true });
  const asked = await stepUp
    .waitFor({ timeout: 3_000 })
    .then(() => true)
    .catch(() => false);
  if (!asked) return;
  await stepUp.fill(password);
  await scope.getByRole("button", { name: button, exact: true }).click();
}

test("an admin declares an action, a second admin approves it, the agent prepares it, a reviewer approves exactly the shop's answer, the shop carries it out once", async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const tool = `issue_store_credit_${randomBytes(4).toString("hex")}`;
  const adminA = staff(TENANT, "admin");
  const adminB = staff(TENANT, "auditor"); // made an admin below, before A proposes (a later admin's approval does not count)
  const reviewer = staff(TENANT, "reviewer");

  // The shop: the credit quote (GET on the endpoint's host) and the action endpoint (signed POST / GET per key).
  await useSession(page, adminA);
  const shop = await startShopStandIn(page, TENANT, "sc_e2e_1", { quote: QUOTE });
  const { quotes, received } = shop;
  let declarationId: string | undefined;
  let retired = false;
  try {
    await withDb((db) =>
      db.query(`UPDATE "StaffUser" SET roles = ARRAY['admin','auditor']::"Role"[] WHERE email = $1`, [adminB.email]),
    );

    await test.step("admin A declares the action through the form; it waits for a second admin", async () => {
      await page.goto("/admin");
      await (
        await hydrated(page.getByTestId("admin-nav").getByRole("link", { name: "Actions", exact: true }).first())
      ).click();
      await expect(page).toHaveURL(/\/admin\/actions$/);
      await (await hydrated(page.getByRole("link", { name: "New action" }))).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("New action");
      // The form is React state: type into it once React owns it.
      await (await hydrated(page.getByLabel("Tool name", { exact: true }))).fill(tool);
      await page
        .getByLabel("Description", { exact: true })
        .fill("Issue store credit for a damaged order, for the amount the shop quotes.");
      const input = page.getByRole("group", { name: "Input field 1" });
      await input.getByLabel("Field name", { exact: true }).fill("order_id");
      await input.getByLabel("Type", { exact: true }).selectOption("string");
      await input.getByLabel("Field description", { exact: true }).fill("The order number");
      await input.getByLabel("Pattern", { exact: true }).fill("^[A-Za-z0-9-]{3,40}$");
      await page.getByLabel("Derive path", { exact: true }).fill("/store-credit/quote?order={order_id}");
      const derived = [
        ["customer", "/customer/name", "Customer", "Cliente", false],
        ["amount", "/credit/amount_minor", "Amount", "Importe", true],
        ["currency", "/credit/currency", "Currency", "Moneda", true],
      ] as const;
      for (const [i, [key, pointer, en, es, clear]] of derived.entries()) {
        if (i > 0) await page.getByRole("button", { name: "Add derived field" }).click();
        const row = page.getByRole("group", { name: `Derived field ${i + 1}` });
        await row.getByLabel("Key", { exact: true }).fill(key);
        await row.getByLabel("JSON pointer", { exact: true }).fill(pointer);
        await row.getByLabel("Label (English)", { exact: true }).fill(en);
        await row.getByLabel("Label (Spanish)", { exact: true }).fill(es);
        await row.getByLabel("Keep in clear in the audit", { exact: true }).setChecked(clear);
      }
      await page
        .getByLabel("Sentence (English)", { exact: true })
        .fill("Issue {amount} {currency} of store credit to {customer}");
      await page
        .getByLabel("Sentence (Spanish)", { exact: true })
        .fill("Emitir {amount} {currency} de saldo a {customer}");
      await page.getByLabel("Approvals", { exact: true }).fill("1");
      await expect(page.getByLabel("Reviewers re-authenticate", { exact: true })).toBeChecked();
      await page.getByLabel("Money amount field", { exact: true }).selectOption("amount");
      await page.getByLabel("Currency field", { exact: true }).selectOption("currency");
      await page.getByLabel("Action sent to the shop", { exact: true }).fill("issue_store_credit");
      await submitWithStepUp(page, "Propose action", adminA.password);
      await expect(
        page
          .locator("main")
          .getByRole("status")
          .filter({ hasText: `Waiting for a second admin: ${tool} version 1` }),
      ).toBeVisible();
      // On a phone's width the form never scrolls sideways.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto("/admin/actions/new");
      await expect(page.getByLabel("Tool name", { exact: true })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(
        0,
      );
      await page.setViewportSize({ width: 1280, height: 720 });

      await page.goto("/admin/actions");
      const mine = page.getByRole("article", { name: `${tool}, version 1` });
      await expect(mine).toContainText("You proposed this version: another admin must approve it.");
      await expect(mine.getByRole("button", { name: "Approve", exact: true })).toHaveCount(0);
      declarationId = (await mine.getAttribute("data-declaration")) ?? undefined;
      expect(declarationId).toBeTruthy();
      // Nor through the API; and until it is approved the agent cannot call it.
      const own = await page.request.post(`/api/admin/actions/${declarationId}/approve`, { data: {}, headers: origin });
      expect(own.status()).toBe(403);
    });

    // No allow-list to change: a declared tool is offered to every agent key of its tenant once approved, not before.
    const number = await freshOrder(TENANT, 5000);
    expect((await agentCall(TENANT, tool, { order_id: number })).code).not.toBe("approval_required");

    await test.step("admin B reviews the whole declaration and approves it", async () => {
      const second = await browser.newContext({ baseURL });
      try {
        const p2 = await second.newPage();
        await signIn(p2, adminB);
        await p2.goto("/admin/actions");
        const pending = p2.getByRole("article", { name: `${tool}, version 1` });
        const fields = pending.getByTestId("declaration-fields");
        await expect(fields.locator('[data-derived="customer"]')).toContainText("Only a fingerprint in the audit");
        await expect(fields.locator('[data-derived="amount"]')).toContainText("/credit/amount_minor");
        await expect(pending).toContainText("/store-credit/quote?order={order_id}");
        await expect(pending).toContainText("Issue {amount} {currency} of store credit to {customer}");
        await submitWithStepUp(pending, "Approve", adminB.password);
        await expect(
          p2.locator("main").getByRole("status").filter({ hasText: "Approved: this version is now active." }),
        ).toBeVisible();
        await expect(p2.locator(`tr[data-declaration="${declarationId}"]`)).toHaveAttribute("data-status", "active");
      } finally {
        await second.close();
      }
    });

    const prepared = await agentCall(TENANT, tool, { order_id: number });
    expect(prepared, JSON.stringify(prepared)).toMatchObject({ code: "approval_required" });
    const proposalId = String(prepared.result!.proposal_id);
    expect(quotes).toContain(number);

    await test.step("the reviewer sees exactly the fields picked from the shop's answer, and approves", async () => {
      await useSession(page, reviewer);
      await page.goto(`/proposals/${proposalId}`);
      const review = page.getByTestId("kind-review");
      // Exactly the three declared fields, labelled as declared, valued as the shop answered: nothing the model sent.
      await expect(review.locator("tbody tr")).toHaveCount(3);
      await expect(review.locator("[data-field]")).toHaveCount(3);
      await expect(review.locator('[data-field="customer"]')).toContainText("Customer");
      await expect(review.locator('[data-field="customer"]')).toContainText("Jane Quote");
      await expect(review.locator('[data-field="amount"]')).toContainText("Amount");
      await expect(review.locator('[data-field="amount"]')).toContainText(/12[.,]34|1234/);
      await expect(review.locator('[data-field="currency"]')).toContainText("USD");
      await expect(review).not.toContainText(number);
      await expect(review).not.toContainText("not picked");

      await page.getByRole("button", { name: "Approve", exact: true }).click();
      const dialog = page.getByRole("dialog");
      await expect(dialog.getByTestId("confirm-text")).toContainText("of store credit to Jane Quote");
      // The declaration asks reviewers to re-authenticate (policy.stepUp): the dialog asks for the password when the
      // session's sign-in or last step-up is older than the tenant's window — before the click or after the server said so.
      const password = dialog.getByLabel("Password");
      const outcome = page.getByTestId("outcome");
      if (!(await password.count())) {
        await dialog.getByRole("button", { name: "Approve change" }).click();
        await expect(outcome.or(password)).toBeVisible({ timeout: 30_000 });
      }
      if (await password.isVisible()) {
        await password.fill(reviewer.password);
        await dialog.getByRole("button", { name: "Approve change" }).click();
      }
      await expect(page.getByTestId("outcome")).toContainText("Approved and done: the shop confirmed it.", {
        timeout: 30_000,
      });
      await expect(page.getByTestId("kind-execution")).toContainText("sc_e2e_1");
    });

    // Carried out once, with what was approved; a reload (and any re-check) does not send it again.
    expect(received).toHaveLength(1);
    expect(JSON.stringify(received[0]!.body)).toContain("issue_store_credit");
    expect(JSON.stringify(received[0]!.body)).toContain("1234");
    await page.reload();
    await expect(page.getByTestId("kind-execution")).toContainText("sc_e2e_1");
    expect(received).toHaveLength(1);

    await test.step("admin A retires the action (one admin is enough to tighten)", async () => {
      await useSession(page, adminA);
      await page.goto("/admin/actions");
      const row = page.locator(`tr[data-declaration="${declarationId}"]`);
      await (await hydrated(row.getByRole("button", { name: `Retire ${tool}` }))).click();
      await page.getByRole("dialog").getByRole("button", { name: "Retire", exact: true }).click();
      // Retiring needs a recent sign-in: when the server asks, the password, then Retire again.
      const stepUp = row.getByLabel("Confirm with your password", { exact: true });
      if (
        await stepUp.waitFor({ timeout: 3_000 }).then(
          () => true,
          () => false,
        )
      ) {
        await stepUp.fill(adminA.password);
        await row.getByRole("button", { name: `Retire ${tool}` }).click();
        await page.getByRole("dialog").getByRole("button", { name: "Retire", exact: true }).click();
      }
      await expect(page.locator("main").getByRole("status").filter({ hasText: "Retired:" })).toBeVisible();
      await expect(row).toHaveAttribute("data-status", "retired");
      retired = true;
    });
  } finally {
    if (declarationId && !retired) {
      // Best effort: never leave this run's tool active or pending for the specs after it.
      await useSession(page, adminA).catch(() => {});
      for (const step of ["retire", "cancel"])
        await page.request.post(`/api/admin/actions/${declarationId}/${step}`, { data: {}, headers: origin });
    }
    await withDb(async (db) => {
      await db.query(
        `UPDATE "StaffUser" SET roles = ARRAY['auditor']::"Role"[], "adminSince" = NULL, "adminGrantedByIds" = '{}' WHERE email = $1`,
        [adminB.email],
      );
    });
    await shop.close();
  }
});
