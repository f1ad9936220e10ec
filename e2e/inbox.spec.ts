// The inbox (docs/design.md "Inbox"): after the first reviewer approves a two-approval proposal, the second
// reviewer's inbox count goes up by one without a reload — pushed (the stream is open, so the badge's poll is
// the 30 s safety net and the expectation's 10 s cannot be met by it) — and the first reviewer's does not.
// The inbox page lists the proposal and links to it.
import { expect, test, type Page } from "@playwright/test";
import { signIn, staff } from "./support/auth";
import { freshOrder } from "./support/db";
import { proposeRefund } from "./support/gateway";
import { hydrated } from "./support/ui";

const badge = (page: Page) => page.getByRole("navigation", { name: "Main navigation" }).getByTestId("inbox-count");
const countOf = async (page: Page) => Number(await badge(page).getAttribute("data-count"));

test.setTimeout(150_000); // two browsers, two sign-ins and the agent demo on a loaded machine

test("the second reviewer's inbox counts a proposal the first reviewer approved; the first reviewer's does not", async ({
  page,
  browser,
}) => {
  const order = await freshOrder("shop-us", 125_000); // ≥ $1,000.00: two reviewers
  const proposalId = await proposeRefund("shop-us", order);

  const otherContext = await browser.newContext();
  const second = await otherContext.newPage();
  try {
    await signIn(second, staff("shop-us", "reviewer", 1));
    await second.goto("/queue");
    await expect(second.locator('[data-pushed="true"]')).toBeVisible(); // the push stream is open
    const secondBefore = await countOf(second);

    await signIn(page, staff("shop-us", "reviewer", 0));
    await page.goto(`/proposals/${proposalId}`);
    const firstBefore = await countOf(page);
    await page.getByRole("button", { name: "Approve", exact: true }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Approve refund" }).click();
    await expect(page.getByRole("status").filter({ hasText: "1 of 2" })).toBeVisible();

    // Pushed to the second reviewer (no reload); the badge names itself for screen readers.
    await expect(badge(second)).toHaveAttribute("data-count", String(secondBefore + 1), { timeout: 10_000 });
    await expect(
      second.getByRole("link", { name: new RegExp(`^Inbox ${secondBefore + 1} waiting for you$`) }),
    ).toBeVisible();
    if (secondBefore === 0) await expect(badge(second)).toHaveText(/^1/);

    // The first reviewer approved already: nothing waits for them.
    await page.goto("/inbox");
    await expect(page.getByRole("heading", { name: "Waiting for you", level: 1 })).toBeVisible();
    await expect(page.locator(`[data-proposal-id="${proposalId}"]`)).toHaveCount(0);
    expect(await countOf(page)).toBe(firstBefore);

    // The second reviewer opens the inbox from the navigation and follows the item to the proposal.
    await badge(second).locator("xpath=..").click();
    await expect(second).toHaveURL(/\/inbox$/);
    const item = second.locator(`[data-proposal-id="${proposalId}"]`);
    await expect(item).toContainText(`Order ${order}`);
    await expect(item).toContainText("1 of 2 approvals");
    await (await hydrated(item.getByRole("link"))).click();
    await expect(second).toHaveURL(new RegExp(`/proposals/${proposalId}$`));
    await expect(second.getByRole("button", { name: "Approve", exact: true })).toBeVisible();
  } finally {
    await otherContext.close();
  }
});
