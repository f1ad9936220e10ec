// The reviewer flow in the browser: the four-eyes wording in both cases, the advisory
// claim seen by the other reviewer (queue row and page), a proposal expiring while its dialog is open
// (says so, keeps what was typed, nothing is rejected), step-up asked for as soon as it becomes due while
// the dialog is open (no refused click first), and a rejection with a preset reason and an internal note
// (who, when, the customer's message and the staff-only note shown; the note kept out of the audit log).
import { expect, test, type Browser, type Page } from "@playwright/test";
import { signIn, staff } from "./support/auth";
import { freshOrder, withDb } from "./support/db";
import { proposeRefund, baseURL } from "./support/gateway";

test.describe.configure({ mode: "serial" });

async function signedIn(
  browser: Browser,
  who: { email: string; password: string },
  opts: { fakeClock?: boolean } = {},
): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signIn(page, who);
  // The browser's clock (not the server's) can then be moved forward: countdowns and due step-up react to it.
  if (opts.fakeClock) await page.clock.install();
  return page;
}

const proposalRow = (id: string) =>
  withDb(
    async (c) =>
      (
        await c.query(
          `SELECT p.status, p."expiresAt", p."rejectionReason", p."rejectionInternalNote", p."decidedAt", s.email AS "rejectedBy", cs.email AS "claimedBy"
             FROM "Proposal" p LEFT JOIN "StaffUser" s ON s.id = p."rejectedByStaffId" LEFT JOIN "StaffUser" cs ON cs.id = p."claimedByStaffId"
            WHERE p.id = $1`,
          [id],
        )
      ).rows[0] as {
        status: string;
        expiresAt: Date;
        rejectionReason: string | null;
        rejectionInternalNote: string | null;
        decidedAt: Date | null;
        rejectedBy: string | null;
        claimedBy: string | null;
      },
  );

const riley = staff("shop-us", "reviewer", 0);
const sam = staff("shop-us", "reviewer", 1);

test("four-eyes: 'approval 1 of 2 — nothing is paid' then 'final approval — pays $1,250.00 now'; the claim is shown to the other reviewer and does not stop them", async ({
  browser,
}) => {
  const id = await proposeRefund("shop-us", await freshOrder("shop-us", 125_000));
  const first = await signedIn(browser, riley);
  await first.goto(`/proposals/${id}`);
  await first.getByRole("button", { name: "Approve", exact: true }).click();
  const d1 = first.getByRole("dialog");
  await expect(
    d1.getByText("You are approval 1 of 2 — nothing is paid until a second reviewer approves."),
  ).toBeVisible();
  // Opening the dialog claimed it ("I'm reviewing this") for Riley; the other reviewer sees that, and is not stopped.
  await expect.poll(async () => (await proposalRow(id)).claimedBy).toBe(riley.email);
  const second = await signedIn(browser, sam);
  await second.goto("/queue");
  await expect(second.locator(`tr[data-proposal-id="${id}"]`).getByTestId("claim-badge")).toHaveText(
    `${riley.name} reviewing`,
  );
  await second.goto(`/proposals/${id}`);
  await expect(second.getByTestId("claim-notice")).toContainText(`${riley.name} is reviewing this`);
  await expect(second.getByTestId("claim-notice")).toContainText("you can still approve or reject");

  // Riley's decision ends Riley's claim.
  await d1.getByRole("button", { name: "Approve refund" }).click();
  await expect(first.getByRole("status")).toContainText("1 of 2");
  await expect.poll(async () => (await proposalRow(id)).claimedBy).toBeNull();

  await second.reload();
  await expect(second.getByTestId("claim-notice")).not.toContainText(riley.name); // nobody's claim now: only "I'm reviewing this"
  await second.getByRole("button", { name: "Approve", exact: true }).click();
  const d2 = second.getByRole("dialog");
  await expect(d2.getByText("Yours is the final approval — this pays $1,250.00 now.")).toBeVisible();
  await expect(d2.getByTestId("claim-lost")).toHaveCount(0);
  await d2.getByRole("button", { name: "Approve refund" }).click();
  await expect(second.getByRole("status")).toContainText("Approved.");
  expect((await proposalRow(id)).status).toMatch(/^(approved|executing|succeeded)$/);
  // Each claim was audited, Riley's first; the final decision ended Sam's too.
  const claims = await withDb(
    async (c) =>
      (
        await c.query(
          `SELECT s.email, e.outcome FROM "AuditEvent" e JOIN "StaffUser" s ON s.id::text = e."actorId" WHERE e."proposalId" = $1 AND e.action = 'proposal:claim' ORDER BY e.pos`,
          [id],
        )
      ).rows as { email: string; outcome: string }[],
  );
  expect(claims[0]).toEqual({ email: riley.email, outcome: "ok" });
  expect(claims.every((e) => e.outcome === "ok")).toBe(true);
  await expect.poll(async () => (await proposalRow(id)).claimedBy).toBeNull();
  await first.context().close();
  await second.context().close();
});

test("a proposal that expires while the reject dialog is open says so, keeps what was typed, and rejects nothing", async ({
  browser,
}) => {
  const id = await proposeRefund("shop-us", await freshOrder("shop-us", 2_345));
  const page = await signedIn(browser, sam, { fakeClock: true });
  await page.goto(`/proposals/${id}`);
  await page.getByRole("button", { name: "Reject", exact: true }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel(/Reason/).fill("Outside the refund window");
  await dialog.getByLabel(/Internal note/).fill("Checked with the warehouse");
  await expect(dialog.getByText(/expired while this window was open/)).toHaveCount(0);

  const { expiresAt } = await proposalRow(id);
  await page.clock.fastForward(new Date(expiresAt).getTime() - Date.now() + 5_000);
  await expect(
    dialog.getByText("This proposal expired while this window was open. Nothing was approved; what you typed is kept."),
  ).toBeVisible();
  await expect(dialog.getByLabel(/Reason/)).toHaveValue("Outside the refund window");
  await expect(dialog.getByLabel(/Internal note/)).toHaveValue("Checked with the warehouse");
  await expect(dialog.getByRole("button", { name: "Reject proposal" })).toBeDisabled();
  const row = await proposalRow(id);
  expect(row.status).toBe("pending_approval");
  expect(row.rejectionReason).toBeNull();
  await page.context().close();
});

test("step-up is asked for as soon as it becomes due while the approve dialog is open, before any click", async ({
  browser,
}) => {
  const id = await proposeRefund("shop-us", await freshOrder("shop-us", 2_468));
  const page = await signedIn(browser, sam, { fakeClock: true });
  await page.goto(`/proposals/${id}`);
  await page.getByRole("button", { name: "Approve", exact: true }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("button", { name: "Approve refund" })).toBeVisible();
  await expect(dialog.getByLabel("Password")).toHaveCount(0); // a fresh sign-in: nothing to confirm yet
  // Six minutes pass with the dialog open (the US tenant's step-up window is 5 minutes).
  await page.clock.fastForward("06:00");
  await expect(
    dialog.getByText("Your sign-in is older than 5 minutes. Enter your password to confirm it is you."),
  ).toBeVisible();
  await dialog.getByLabel("Password").fill(sam.password);
  await dialog.getByRole("button", { name: "Approve refund" }).click();
  await expect(page.getByRole("status")).toContainText("Approved.");
  expect((await proposalRow(id)).status).toMatch(/^(approved|executing|succeeded)$/);
  await page.context().close();
});

test("a rejection with a preset reason and an internal note: who, when, the customer's message and the staff-only note", async ({
  browser,
}) => {
  const id = await proposeRefund("shop-us", await freshOrder("shop-us", 3_456));
  const page = await signedIn(browser, sam);
  await page.goto(`/proposals/${id}`);
  await page.getByRole("button", { name: "Reject", exact: true }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Not eligible" }).click();
  const preset = "The order is not eligible for a refund under our policy.";
  await expect(dialog.getByLabel(/Reason/)).toHaveValue(preset);
  await dialog.getByLabel(/Internal note/).fill("Bought in the final-sale promotion");
  await dialog.getByRole("button", { name: "Reject proposal" }).click();
  await expect(page.getByRole("status")).toContainText("Rejected.");

  const outcome = page.getByTestId("outcome");
  await expect(outcome.getByTestId("rejected-by")).toContainText(`Rejected by ${sam.name}`);
  await expect(outcome.getByTestId("customer-message")).toContainText(preset);
  await expect(outcome.getByTestId("internal-note")).toContainText("Bought in the final-sale promotion");

  const row = await proposalRow(id);
  expect(row).toMatchObject({
    status: "rejected",
    rejectionReason: preset,
    rejectionInternalNote: "Bought in the final-sale promotion",
    rejectedBy: sam.email,
  });
  expect(row.decidedAt).not.toBeNull();
  const leaked = await withDb(async (c) =>
    Number(
      (
        await c.query(
          `SELECT count(*) FROM "AuditEvent" WHERE "proposalId" = $1 AND row_to_json("AuditEvent")::text ILIKE '%final-sale%'`,
          [id],
        )
      ).rows[0].count,
    ),
  );
  expect(leaked).toBe(0);
  await page.context().close();
});

test("a superseded proposal and its replacement link to each other in plain words", async ({ browser }) => {
  const id = await proposeRefund("shop-us", await freshOrder("shop-us", 20_000));
  const page = await signedIn(browser, riley);
  await page.goto(`/proposals/${id}`);
  await page.getByRole("button", { name: "Lower the amount" }).click();
  await page.getByRole("dialog").getByLabel("New amount (USD)").fill("150.00");
  await page.getByRole("dialog").getByRole("button", { name: "Replace with the lower amount" }).click();
  // The reviewer lands on the new proposal, which says what changed: before → after.
  await expect(page).not.toHaveURL(new RegExp(`${id}$`));
  const replacement = page.url().split("/").pop()!;
  const comparison = page.getByRole("region", { name: "Replaces an earlier proposal" });
  await expect(comparison.getByTestId("amount-before")).toHaveText("$200.00");
  await expect(comparison.getByTestId("amount-after")).toHaveText("$150.00");
  await expect(comparison).toContainText("lowered by $50.00");
  await comparison.getByRole("link", { name: "open the earlier proposal" }).click();
  await expect(page).toHaveURL(new RegExp(`/proposals/${id}$`));
  // The old proposal does not flag its own replacement (same order, still open) as a possible duplicate.
  await expect(page.getByTestId("outcome")).toBeVisible();
  await expect(page.getByTestId("duplicate-of")).toHaveCount(0);
  const outcome = page.getByTestId("outcome");
  await expect(outcome).toContainText("Replaced by a newer proposal:");
  await outcome.getByRole("link", { name: "open the replacement" }).click();
  await expect(page).toHaveURL(new RegExp(`/proposals/${replacement}$`));
  await page.context().close();
});
