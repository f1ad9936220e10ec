// The dashboard as its people use it, on the shared queue (serial: it walks and counts the whole queue): the
// phone navigation sheet, a keyboard-only review of three proposals, shortcuts, filters that survive a reload,
// the live tab title. Every screen at phone and laptop sizes in light and dark is ui-screens.spec.ts.
import { expect, test } from "@playwright/test";
import { staff } from "./support/auth";
import { freshOrder, withDb } from "./support/db";
import { proposeRefund } from "./support/gateway";
import { as, holdScripts, sizes } from "./support/ui";

test("phones get the navigation in a sheet", async ({ page }) => {
  await as(page, "shop-us", "reviewer", sizes[0], "light");
  await page.goto("/queue");
  await expect(page.getByRole("navigation", { name: "Main navigation" })).toBeHidden();
  await page.getByRole("button", { name: "Open navigation" }).click();
  const sheet = page.getByRole("dialog");
  await sheet.getByRole("link", { name: "Decided" }).click();
  await expect(page).toHaveURL(/\/decided$/);
  await expect(page.getByRole("heading", { name: "Decided proposals" })).toBeVisible();
});

test("keyboard only: three proposals reviewed with j, Enter, a/r and n; each decision is stored", async ({ page }) => {
  // Three agent runs and three decisions, each page pushed live: more than the default minute on a loaded machine.
  test.setTimeout(120_000);
  const ids = [];
  for (const amount of [2_101, 2_202, 2_303])
    ids.push(await proposeRefund("shop-us", await freshOrder("shop-us", amount)));
  await as(page, "shop-us", "reviewer", sizes[1], "light");
  await page.goto("/queue");
  await expect(page.locator(`tr[data-proposal-id="${ids[2]}"]`)).toBeVisible();
  // No mouse from here on. j moves to a row once the page's shortcuts are live (after hydration: retried).
  await expect(async () => {
    await page.keyboard.press("j");
    await expect(page.locator("[data-queue-link]:focus")).toHaveCount(1, { timeout: 1_000 });
  }).toPass();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/proposals\//);

  const decided: { id: string; how: "approve" | "reject" }[] = [];
  for (let i = 0; i < 3; i++) {
    await expect(page.getByTestId("amount")).toBeVisible();
    const id = page.url().split("/proposals/")[1]!;
    const how = i === 1 ? "reject" : "approve";
    await page.keyboard.press(how === "approve" ? "a" : "r");
    const dialog = page.getByRole("dialog");
    await expect(dialog).toBeVisible();
    if (how === "approve") {
      await expect(dialog.getByRole("button", { name: "Approve refund" })).toBeFocused();
    } else {
      await expect(dialog.getByLabel(/Reason/)).toBeFocused();
      await page.keyboard.type("Customer already received a replacement");
      await page.keyboard.press("Tab"); // to the internal note (staff only)
      await expect(dialog.getByLabel(/Internal note/)).toBeFocused();
      await page.keyboard.type("Replacement shipped last week");
      await page.keyboard.press("Tab"); // to Cancel
      await page.keyboard.press("Tab"); // to Reject proposal
      await expect(dialog.getByRole("button", { name: "Reject proposal" })).toBeFocused();
    }
    await page.keyboard.press("Enter");
    await expect(page.getByRole("status")).toContainText(how === "approve" ? /Approved|Approval recorded/ : /Rejected/);
    decided.push({ id, how });
    // Focus moves to "Review next"; Enter opens it.
    const next = page.getByRole("link", { name: /^Review next/ });
    await expect(next).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).not.toHaveURL(new RegExp(id));
  }
  expect(new Set(decided.map((d) => d.id)).size).toBe(3);
  const reviewer = staff("shop-us", "reviewer");
  for (const d of decided) {
    const row = await withDb(
      async (c) => (await c.query(`SELECT status FROM "Proposal" WHERE id = $1`, [d.id])).rows[0] as { status: string },
    );
    if (d.how === "reject") expect(row.status).toBe("rejected");
    else {
      const approvals = await withDb(
        async (c) =>
          (
            await c.query(
              `SELECT a.id FROM "Approval" a JOIN "StaffUser" s ON s.id = a."approverId" WHERE a."proposalId" = $1 AND s.email = $2`,
              [d.id, reviewer.email],
            )
          ).rows,
      );
      expect(approvals).toHaveLength(1);
    }
  }
});

test("the help lists the shortcuts and ⌘K jumps to a waiting proposal", async ({ page }) => {
  const order = await freshOrder("shop-us", 3_131);
  const id = await proposeRefund("shop-us", order);
  await as(page, "shop-us", "reviewer", sizes[1], "dark");
  await page.goto("/queue");
  await page.locator("body").click({ position: { x: 5, y: 400 } });
  await page.keyboard.press("?");
  await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
  await page.keyboard.press("Escape");
  await page.keyboard.press("Control+k");
  const palette = page.getByRole("dialog", { name: "Jump to" });
  await expect(palette).toBeVisible();
  await page.keyboard.type(order);
  await page.getByRole("option", { name: new RegExp(`^${order}`) }).click();
  await expect(page).toHaveURL(new RegExp(`/proposals/${id}$`));
});

test("a queue filter and sort live in the URL and survive a reload, even when chosen before the page is interactive", async ({
  page,
}) => {
  await as(page, "shop-us", "reviewer", sizes[1], "light");
  // The page's scripts are held back: the reviewer's choices land on server-rendered selects that no handler
  // listens to yet. Once the scripts run, the toolbar applies what the browser shows.
  const scripts = await holdScripts(page);
  // "commit": the HTML streams in while its scripts wait (a sync script would hold DOMContentLoaded back).
  await page.goto("/queue", { waitUntil: "commit" });
  await page.getByLabel("Channel").selectOption("web_support");
  await page.getByLabel("Sort").selectOption("amount_desc");
  expect(page.url()).not.toMatch(/channel=/);
  scripts.release();
  await expect(page).toHaveURL(/channel=web_support/);
  await expect(page).toHaveURL(/sort=amount_desc/);
  await scripts.done();

  // Interactive now: two quick changes both reach the URL, and the earlier choice is kept.
  await page.getByLabel("Flag", { exact: true }).selectOption("velocity");
  await page.getByLabel("Sort").selectOption("newest");
  await expect(page).toHaveURL(/flag=velocity/);
  await expect(page).toHaveURL(/sort=newest/);
  await expect(page).toHaveURL(/channel=web_support/);
  await page.getByLabel("Flag", { exact: true }).selectOption("");
  await page.getByLabel("Sort").selectOption("amount_desc");
  await expect(page).not.toHaveURL(/flag=/);
  await expect(page).toHaveURL(/channel=web_support&sort=amount_desc$/);

  await page.reload();
  await expect(page.getByLabel("Channel")).toHaveValue("web_support");
  await expect(page.getByLabel("Sort")).toHaveValue("amount_desc");
  // The sort is applied: amounts are non-increasing down the table.
  const amounts = await page
    .locator("tbody tr [data-minor]")
    .evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-minor"))));
  expect(amounts.length).toBeGreaterThan(0);
  expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
});

test("the Decided view finds a rejected proposal by its order number, and the URL keeps the search", async ({
  page,
}) => {
  const order = await freshOrder("shop-us", 4_444);
  const id = await proposeRefund("shop-us", order);
  await as(page, "shop-us", "reviewer", sizes[1], "light");
  await page.goto(`/proposals/${id}`);
  await page.getByRole("button", { name: "Reject" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Not eligible" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Reject proposal" }).click();
  await expect(page.getByRole("status")).toContainText("Rejected.");
  await page.reload();
  await expect(page.getByTestId("outcome")).toContainText("Rejected by a reviewer; nothing was paid.");
  await expect(page.getByRole("heading", { name: "What happened" })).toBeVisible();
  await expect(page.getByTestId("expires")).not.toContainText("expires in");
  await page.goto("/decided");
  await page.getByLabel("Search").first().fill(order);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`q=${order}`));
  await expect(page.locator(`tr[data-proposal-id="${id}"]`)).toContainText("rejected by");
  await page.reload();
  await expect(page.locator(`tr[data-proposal-id="${id}"]`)).toBeVisible();
});

/** What the queue shows as waiting for shop-us right now (pending approval, not expired). */
const pendingInDb = () =>
  withDb(
    async (c) =>
      (
        await c.query(
          `SELECT count(*)::int AS n FROM "Proposal" p JOIN "Tenant" t ON t.id = p."tenantId"
            WHERE t.slug = 'shop-us' AND p.status = 'pending_approval' AND p."expiresAt" > now()`,
        )
      ).rows[0].n as number,
  );

test("reviewers see the pending count in the tab title on every dashboard page, kept live; other roles do not", async ({
  page,
}) => {
  await proposeRefund("shop-us", await freshOrder("shop-us", 5_151));
  await as(page, "shop-us", "reviewer", sizes[1], "light");
  await page.goto("/queue");
  const n = await pendingInDb();
  expect(n).toBeGreaterThan(0);
  await expect(page).toHaveTitle(`(${n}) Review queue · Approval Gateway`);
  // Pages with their own title keep it after the count; pages without one get their section's name.
  await page.getByRole("link", { name: "Decided" }).first().click();
  await expect(page).toHaveURL(/\/decided$/);
  await expect(page).toHaveTitle(new RegExp(`^\\(${n}\\) Decided.* · Approval Gateway$`));
  await page.goto("/executions"); // not a reviewer's page: the Forbidden page inside the shell
  await expect(page.getByRole("heading", { name: "Not allowed" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main navigation" })).toBeVisible();
  await expect(page).toHaveTitle(`(${n}) Not allowed · Approval Gateway`);
  await page.goto("/account/passkeys");
  await expect(page).toHaveTitle(new RegExp(`^\\(${n}\\) .+ · Approval Gateway$`));

  // Work arrives while the reviewer is elsewhere: the title follows without a reload.
  await proposeRefund("shop-us", await freshOrder("shop-us", 5_252));
  await expect(page).toHaveTitle(new RegExp(`^\\(${n + 1}\\) `), { timeout: 20_000 });

  const auditor = await as(page, "shop-us", "auditor", sizes[1], "light");
  await auditor.goto("/audit");
  await expect(auditor.getByRole("navigation", { name: "Main navigation" })).toBeVisible();
  await expect(auditor).toHaveTitle(/^Audit.* · Approval Gateway$/);
});

test("live data that stops updating says so, and recovers by itself", async ({ page }) => {
  await as(page, "shop-us", "reviewer", sizes[1], "light");
  // Without the push stream the queue polls at its fallback pace (with it, it re-reads only every 30 s).
  await page.route("**/api/stream/**", (route) => route.abort());
  await page.goto("/queue");
  const live = page.locator("[data-live]");
  await expect(live).toHaveAttribute("data-live", "ok");
  await expect(live).toContainText("Live · updated");
  // The queue's refreshes fail (server unreachable): the list is marked as not updating.
  await page.route(/\/api\/proposals(\?|$)/, (route) => route.abort("connectionrefused"));
  await expect(live).toHaveText("Not updating — retrying", { timeout: 20_000 });
  await expect(live).toHaveAttribute("data-live", "failing");
  await page.unroute(/\/api\/proposals(\?|$)/);
  await expect(live).toHaveAttribute("data-live", "ok", { timeout: 20_000 });
  await expect(live).toContainText("Live · updated");
});
