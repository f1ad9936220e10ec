// A reviewer deciding a refund looks up what the agent did in that conversation — the redacted
// timeline of one trace — from the proposal's trace link and from the Trace box in the dashboard.
import { expect, test } from "@playwright/test";
import { useSession, staff } from "./support/auth";
import { freshOrder, withDb } from "./support/db";
import { proposeRefund } from "./support/gateway";
import { hydrated } from "./support/ui";

test("a reviewer follows a pending proposal's trace link and pastes its traceId into the Trace box: the agent's calls in order", async ({
  page,
}) => {
  const order = await freshOrder("shop-us", 1_800);
  const proposalId = await proposeRefund("shop-us", order, { conversation: true });
  const { traceId } = await withDb(
    async (db) =>
      (await db.query(`SELECT "traceId" FROM "Proposal" WHERE id = $1`, [proposalId])).rows[0] as { traceId: string },
  );
  const reviewer = staff("shop-us", "reviewer");
  await useSession(page, reviewer);

  await page.goto(`/proposals/${proposalId}`);
  // Clicked once React owns the link (a click just before hydration can be lost: e2e/support/ui.ts).
  await (await hydrated(page.getByRole("link", { name: /Open the trace/ }))).click();
  await expect(page).toHaveURL(new RegExp(`/audit/traces/${traceId}$`));
  await expect(page.getByRole("heading", { level: 1 })).toContainText(traceId);

  const timeline = page.getByRole("list", { name: "Timeline" });
  const actions = async () =>
    timeline
      .locator("li")
      .evaluateAll((els) => els.map((e) => [e.getAttribute("data-action"), e.getAttribute("data-outcome")]));
  const steps = await actions();
  // The agent's calls in the order it made them (agent:demo's conversation): a hallucinated tool refused, the lookup, a
  // model-supplied amount refused, the proposal, a status check.
  expect(steps.filter(([a]) => a?.startsWith("tool:"))).toEqual([
    ["tool:search_invoices", "unknown_tool"],
    ["tool:lookup_order", "ok"],
    ["tool:prepare_refund", "invalid_arguments"],
    ["tool:prepare_refund", "approval_required"],
    ["tool:get_refund_status", "approval_required"],
  ]);
  // Redacted arguments are there to read (the order id is allow-listed; the end user only as a fingerprint).
  const prepare = timeline.locator('li[data-action="tool:prepare_refund"][data-outcome="approval_required"]');
  await prepare.getByText("Redacted details").click();
  await expect(prepare.locator("pre")).toContainText(order);
  // Reviewers get the timeline, not the auditors' tools.
  await expect(page.getByRole("link", { name: "Download evidence pack" })).toHaveCount(0);

  // The lookup is an HTTP redirect before anything renders (proxy.ts): rendered first, Next would follow it twice
  // (a meta refresh and a client redirect) and record two views for one lookup.
  const bare = await page.request.get(`/audit?traceId=${traceId}`, { maxRedirects: 0 });
  expect(bare.status()).toBe(307);
  expect(bare.headers().location).toMatch(new RegExp(`/audit/traces/${traceId}$`));

  // The same page from the Trace box in the dashboard.
  await page.goto("/queue");
  const box = page.getByRole("search", { name: "Trace" });
  await box.getByLabel("Trace").fill(traceId);
  await box.getByRole("button", { name: "Open trace" }).click();
  await expect(page).toHaveURL(new RegExp(`/audit/traces/${traceId}$`));
  await expect(page.getByRole("heading", { level: 1 })).toContainText(traceId);
  await expect(timeline.locator("li")).toHaveCount(steps.length);
  expect(await actions()).toEqual(steps);

  // Both lookups are audit events of this reviewer.
  const lookups = await withDb(
    async (db) =>
      (
        await db.query(
          `SELECT count(*)::int AS n FROM "AuditEvent" e JOIN "StaffUser" s ON s.id::text = e."actorId" WHERE s.email = $1 AND e.action = 'audit:view_trace' AND e."traceId" = $2`,
          [reviewer.email, `audit:${traceId}`],
        )
      ).rows[0] as { n: number },
  );
  expect(lookups.n).toBe(2);
});
