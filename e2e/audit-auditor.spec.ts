import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { useSession, staff } from "./support/auth";
import { freshOrder, withDb } from "./support/db";
import { proposeRefund } from "./support/gateway";
import { hydrated } from "./support/ui";

const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://localhost:${port}`;
// The viewer's zone: neither UTC nor shop-us's own zone (America/New_York), so a date read in the wrong
// zone finds the wrong events.
const zone = "Europe/Madrid";

/** "YYYY-MM-DDTHH:mm" of an instant in `timeZone` (what a datetime-local field holds). */
function wallClock(instant: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** A proposal for a fresh shop-us order, rejected by a reviewer through the API; its rejection event. */
async function rejectedProposal(browser: Browser): Promise<{ proposalId: string; eventId: string; at: Date }> {
  const order = await freshOrder("shop-us", 1_500);
  const proposalId = await proposeRefund("shop-us", order);
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await useSession(page, staff("shop-us", "reviewer", 1));
  const hash = await withDb(
    async (db) => (await db.query(`SELECT hash FROM "Proposal" WHERE id = $1`, [proposalId])).rows[0].hash as string,
  );
  const res = await page.request.post(`/api/proposals/${proposalId}/reject`, {
    data: { hash, reason: "Customer kept the item" },
    headers: { origin: baseURL },
  });
  expect(res.status(), await res.text()).toBe(200);
  await context.close();
  const ev = await withDb(
    async (db) =>
      (
        await db.query(
          `SELECT id, "occurredAt" FROM "AuditEvent" WHERE "proposalId" = $1 AND action = 'proposal:reject' AND outcome = 'ok'`,
          [proposalId],
        )
      ).rows[0] as { id: string; occurredAt: Date },
  );
  // occurredAt is a UTC timestamp without zone; pg reads it as local time of this process: take its parts.
  const at = new Date(
    Date.UTC(
      ev.occurredAt.getFullYear(),
      ev.occurredAt.getMonth(),
      ev.occurredAt.getDate(),
      ev.occurredAt.getHours(),
      ev.occurredAt.getMinutes(),
      ev.occurredAt.getSeconds(),
      ev.occurredAt.getMilliseconds(),
    ),
  );
  return { proposalId, eventId: ev.id, at };
}

async function auditorPage(browser: Browser, viewport = { width: 1366, height: 900 }): Promise<Page> {
  const context = await browser.newContext({ baseURL, timezoneId: zone, viewport });
  const page = await context.newPage();
  await useSession(page, staff("shop-us", "auditor"));
  return page;
}

/** The event ids of the shop-us rejections in [from, to] (UTC instants), read from the database. */
const rejectionsBetween = (from: Date, to: Date) =>
  withDb(async (db) =>
    (
      await db.query(
        `SELECT e.id FROM "AuditEvent" e JOIN "Tenant" t ON t.id = e."tenantId"
          WHERE t.slug = 'shop-us' AND e.action = 'proposal:reject'
            AND e."occurredAt" >= ($1::timestamptz AT TIME ZONE 'UTC') AND e."occurredAt" <= ($2::timestamptz AT TIME ZONE 'UTC')`,
        [from.toISOString(), to.toISOString()],
      )
    ).rows.map((r: { id: string }) => r.id),
  );

test("an auditor's date range in local time finds the events shown in that range; filters survive reload", async ({
  browser,
}) => {
  const rejection = await rejectedProposal(browser);
  const page = await auditorPage(browser);

  // Default view: the newest events, without any filter; the zone is shown and put in the URL.
  await page.goto("/audit");
  await expect(page).toHaveTitle(/Audit trail/);
  await expect(page.getByRole("heading", { name: "Most recent events" })).toBeVisible();
  await expect(page.getByRole("table", { name: "Results" }).locator("tbody tr").first()).toBeVisible();
  await expect(page.locator("#audit-zone")).toContainText(zone);
  await expect(page).toHaveURL(/tz=Europe(%2F|\/)Madrid/);

  // The picker lists actions by plain name; "Proposal rejected" finds the rejection.
  await page.getByLabel("Action or tool").selectOption({ label: "Proposal rejected" });
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/action=proposal(%3A|:)reject/);
  const table = page.getByRole("table", { name: "Results" });
  const row = table.locator(`tr[data-event-id="${rejection.eventId}"]`);
  await expect(row).toBeVisible();
  await expect(row).toContainText("Proposal rejected");
  // The actor is the reviewer by name, the id on hover.
  const reviewer = staff("shop-us", "reviewer", 1);
  await expect(row).toContainText(reviewer.email);
  await expect(row.locator("[data-actor-id]")).toHaveAttribute("title", /Staff · id [0-9a-f-]{36}/);

  // The time shown is the viewer's local time; that same minute, typed as a local range, finds it.
  const local = wallClock(rejection.at, zone);
  const shownTime = local.slice(11); // "HH:mm" in Madrid
  const [hh, mm] = shownTime.split(":").map(Number) as [number, number];
  const twelve = `${((hh + 11) % 12) + 1}:${String(mm).padStart(2, "0")}`;
  await expect(row.locator("time")).toContainText(twelve);
  await page.getByLabel("From", { exact: true }).fill(local);
  await page.getByLabel("To", { exact: true }).fill(local);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/from=/);
  await expect(row).toBeVisible();
  // Exactly the rejections of that local minute, as the database has them.
  const minuteStart = new Date(Math.floor(rejection.at.getTime() / 60_000) * 60_000);
  const expected = await rejectionsBetween(minuteStart, new Date(minuteStart.getTime() + 59_999));
  const shown = await table.locator("tbody tr").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-event-id")));
  expect(shown.sort()).toEqual(expected.sort());
  expect(shown).toContain(rejection.eventId);
  for (const text of await table.locator("tbody time").allTextContents()) expect(text).toContain(twelve);

  // The same wall-clock minute read as UTC would be another hour: an hour-earlier local range misses it.
  const hourEarlier = wallClock(new Date(rejection.at.getTime() - 3_600_000), zone);
  await page.getByLabel("From", { exact: true }).fill(hourEarlier);
  await page.getByLabel("To", { exact: true }).fill(hourEarlier);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(table.locator(`tr[data-event-id="${rejection.eventId}"]`)).toHaveCount(0);
  await page.getByLabel("From", { exact: true }).fill(local);
  await page.getByLabel("To", { exact: true }).fill(local);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(row).toBeVisible();

  // A quick range fills the start in local time (today at midnight, in the viewer's zone).
  await page.getByRole("group", { name: "Quick ranges" }).getByRole("button", { name: "Today" }).click();
  await expect(page.getByLabel("From", { exact: true })).toHaveValue(
    `${wallClock(new Date(), zone).slice(0, 10)}T00:00`,
  );
  await expect(page.getByLabel("To", { exact: true })).toHaveValue("");
  await page.getByLabel("From", { exact: true }).fill(local);
  await page.getByLabel("To", { exact: true }).fill(local);

  // Reload: the filters, the zone and the result come back from the URL.
  await page.reload();
  await expect(page.getByLabel("Action or tool")).toHaveValue("proposal:reject");
  await expect(page.getByLabel("From", { exact: true })).toHaveValue(local);
  await expect(page.getByLabel("To", { exact: true })).toHaveValue(local);
  await expect(
    page.getByRole("table", { name: "Results" }).locator(`tr[data-event-id="${rejection.eventId}"]`),
  ).toBeVisible();
  await expect(page.locator("#audit-zone")).toContainText(zone);

  // The chain panel shows this tenant's signed log; no every-chain verification for auditors.
  const panel = page.getByRole("region", { name: "Chain verification" });
  await expect(panel.getByTestId("own-log")).toContainText("This tenant's signed log holds");
  await expect(panel.getByRole("button", { name: "Verify the chain now" })).toHaveCount(0);
  await panel.getByRole("button", { name: "Verify this tenant's log now" }).click();
  await expect(panel.locator("[data-own-log]")).toHaveAttribute("data-own-log", "ok");
  await page.context().close();
});

/** No serious or critical axe violations on the page as it is. */
async function axeClean(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => `${label} ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

// The audit search at 390×844 and 1366×900, light and dark (no sideways scroll, cards on a phone and the table on a
// laptop, no serious axe violation) is ui-screens.spec.ts's audit screen: the same page, sizes and schemes.

test("the evidence summary beside the JSON download says who prepared, who rejected, the hash and that the pack verifies", async ({
  browser,
}) => {
  const rejection = await rejectedProposal(browser);
  const hash = await withDb(
    async (db) =>
      (await db.query(`SELECT hash, "traceId" FROM "Proposal" WHERE id = $1`, [rejection.proposalId])).rows[0] as {
        hash: string;
        traceId: string;
      },
  );
  const page = await auditorPage(browser);
  await page.goto(`/audit/traces/${hash.traceId}`);
  // The timeline speaks plain words; the code stays on hover.
  const rejectStep = page
    .getByRole("list", { name: "Timeline" })
    .locator('li[data-action="proposal:reject"][data-outcome="ok"]');
  await expect(rejectStep).toContainText("Proposal rejected");
  await expect(rejectStep.getByTitle("proposal:reject")).toBeVisible();
  await (await hydrated(page.getByRole("link", { name: "Read the evidence summary" }))).click();
  await expect(page).toHaveURL(new RegExp(`/audit/evidence/${rejection.proposalId}$`));
  await expect(page).toHaveTitle(/Evidence pack summary/);
  await expect(page.locator("[data-verification]")).toHaveAttribute("data-verification", "ok", { timeout: 20_000 });
  await expect(page.getByTestId("evidence-hash")).toHaveText(hash.hash);
  await expect(page.getByTestId("evidence-prepared")).not.toHaveText("—");
  await expect(page.getByLabel("Evidence facts")).toContainText("Rejected by");
  await expect(page.getByLabel("Evidence facts")).toContainText(staff("shop-us", "reviewer", 1).email);
  await expect(page.getByRole("link", { name: "Download the evidence pack (JSON)" })).toHaveAttribute(
    "href",
    `/api/audit/evidence/${rejection.proposalId}`,
  );
  await axeClean(page, "evidence 1366");
  // Readable on a phone too: no horizontal page scroll at 390 px.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId("evidence-hash")).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await page.context().close();
});
