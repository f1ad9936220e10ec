// Admin → Webhook deliveries (app/(dashboard)/admin/_components/webhook-deliveries-section.tsx): an admin sends a
// test to a channel's decision webhook, watches it arrive at a real local receiver, resends it (same webhook id),
// and sees a failing receiver's delivery stay pending with its error and next attempt. Then the audit trail.
// A real browser on the real app with its in-process job worker.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { useSession, staff } from "./support/auth";
import { withDb } from "./support/db";

type Received = { webhookId: string; type: string };

/** The current first row of the history for `webhook.test` deliveries, read after a reload until `check` passes. */
async function untilRow(page: Page, rows: Locator, check: (row: Locator) => Promise<void>) {
  await expect(async () => {
    await page.reload();
    await check(rows.first());
  }).toPass({ timeout: 45_000, intervals: [500, 1_000, 2_000] });
}

test("an admin sends a test to a decision webhook, resends it with the same id, and sees a failing receiver's error and next attempt", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const received: Received[] = [];
  let answer = 200;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      let type = "unknown";
      try {
        type = String((JSON.parse(Buffer.concat(chunks).toString("utf8")) as { type?: unknown }).type);
      } catch {
        // not JSON: recorded as unknown
      }
      received.push({ webhookId: String(req.headers["webhook-id"]), type });
      res.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/decisions`;
  const tests = () => received.filter((r) => r.type === "webhook.test");

  const admin = staff("shop-us", "admin");
  const channelId = await withDb(async (c) => {
    const r = await c.query<{ id: string }>(
      `SELECT ch.id FROM "Channel" ch JOIN "Tenant" t ON t.id = ch."tenantId" WHERE t.slug = 'shop-us' AND ch.slug = 'web_support'`,
    );
    return r.rows[0]!.id;
  });
  const startedAt = new Date();

  await useSession(page, admin);
  // The decision webhook is set through its JSON API (the page's session; same origin as the browser's).
  const put = await page.request.put(`/api/admin/channels/${channelId}/decision-webhook`, {
    data: { url: hookUrl },
    headers: { origin: baseURL! },
  });
  expect(put.status()).toBe(200);
  try {
    await page.goto("/admin");
    const section = page.getByRole("region", { name: "Webhook deliveries" });
    const rows = section.getByRole("row").filter({ hasText: "webhook.test" });
    const cell = (row: Locator, column: number) => row.getByRole("cell").nth(column);

    // 1. Send a test: the receiver gets it, the row says delivered after one attempt.
    await section.getByRole("button", { name: "Send test to the decision webhook of Web support chat" }).click();
    await expect(section.getByRole("status")).toContainText("Test queued");
    await untilRow(page, rows, async (row) => {
      await expect(cell(row, 3)).toHaveText("delivered");
    });
    const first = rows.first();
    await expect(cell(first, 1)).toHaveText("Decision webhook (Web support chat)");
    await expect(cell(first, 4)).toHaveText("1");
    await expect(cell(first, 6)).toHaveText("—");
    expect(tests()).toHaveLength(1);

    // 2. Resend it: delivered again, with the same webhook id (a receiver deduplicates on it).
    await first.getByRole("button", { name: /^Resend webhook\.test/ }).click();
    await expect.poll(() => tests().length, { timeout: 45_000 }).toBe(2);
    expect(tests()[1]!.webhookId).toBe(tests()[0]!.webhookId);
    await untilRow(page, rows, async (row) => {
      await expect(cell(row, 3)).toHaveText("delivered");
    });

    // 3. A failing receiver: the new test stays pending with its error and the time of the next attempt; no resend yet.
    answer = 503;
    await section.getByRole("button", { name: "Send test to the decision webhook of Web support chat" }).click();
    await untilRow(page, rows, async (row) => {
      await expect(cell(row, 5)).toHaveText("HTTP 503");
    });
    const failing = rows.first();
    await expect(cell(failing, 3)).toHaveText("pending");
    await expect(cell(failing, 4)).not.toHaveText("0");
    await expect(cell(failing, 6).locator("time")).toHaveCount(1);
    await expect(failing.getByRole("button", { name: /^Resend/ })).toHaveCount(0);

    // 4. The audit trail has the admin's two tests and the resend.
    const actions = await withDb(async (c) => {
      const r = await c.query<{ action: string }>(
        `SELECT e.action FROM "AuditEvent" e JOIN "StaffUser" s ON s.id::text = e."actorId" WHERE s.email = $1 AND e.action IN ('admin:test_webhook', 'admin:resend_webhook') AND e."occurredAt" >= $2 ORDER BY e.pos`,
        [admin.email, startedAt],
      );
      return r.rows.map((row) => row.action);
    });
    expect(actions).toEqual(["admin:test_webhook", "admin:resend_webhook", "admin:test_webhook"]);
  } finally {
    await page.request.delete(`/api/admin/channels/${channelId}/decision-webhook`, { headers: { origin: baseURL! } });
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

// Admin → Slack and e-mail deliveries (app/(dashboard)/admin/_components/notification-deliveries-section.tsx): the
// Slack webhook points at a local listener that answers 503; a test message is retried until it fails for good
// (each retry made due at once in the job table instead of waiting out the e^n s backoff), the history shows the
// error, and Resend sends it once more, delivered (two resends at once: tests/integration/notification-deliveries.test.ts).
test("an admin sees a failing Slack test message fail for good in the history and resends it once, delivered", async ({
  page,
}) => {
  test.setTimeout(150_000);
  const posts: string[] = [];
  let answer = 503;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      posts.push(Buffer.concat(chunks).toString("utf8"));
      res.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/services/T9/B9/e2e`;
  const admin = staff("shop-us", "admin");
  const startedAt = new Date();

  await useSession(page, admin);
  await page.goto("/admin");
  const slack = page.getByRole("region", { name: "Slack notifications" });
  await slack.getByLabel("Incoming webhook URL").fill(hookUrl);
  await slack.getByRole("button", { name: "Save", exact: true }).click();
  await expect(slack.getByTestId("slack-status")).toHaveText(`on (${new URL(hookUrl).host})`);
  try {
    const section = page.getByRole("region", { name: "Slack and e-mail deliveries" });
    const rows = section.getByRole("row").filter({ hasText: "Slack webhook" }).filter({ hasText: "Test" });
    const cell = (row: Locator, column: number) => row.getByRole("cell").nth(column);

    await section.getByRole("button", { name: "Send test to the Slack webhook" }).click();
    await expect(section.getByRole("status")).toContainText("Test queued");
    await untilRow(page, rows, async (row) => {
      await expect(cell(row, 5)).toHaveText("HTTP 503");
    });
    const id = (await rows.first().getAttribute("data-delivery-id"))!;
    const row = section.locator(`tr[data-delivery-id="${id}"]`);
    await expect(cell(row, 3)).toHaveText("pending");
    await expect(cell(row, 6).locator("time")).toHaveCount(1); // the next attempt, with its zone
    await expect(row.getByRole("button", { name: /^Resend/ })).toHaveCount(0);

    // Retried until it fails for good: each waiting retry is made due now instead of after its backoff.
    await expect(async () => {
      await withDb((c) =>
        c.query(`UPDATE graphile_worker._private_jobs SET run_at = now() WHERE key = $1 AND locked_at IS NULL`, [
          `notify:${id}`,
        ]),
      );
      await page.reload();
      await expect(cell(row, 3)).toHaveText("failed", { timeout: 1_000 });
    }).toPass({ timeout: 90_000, intervals: [1_000] });
    await expect(cell(row, 4)).toHaveText("6");
    await expect(cell(row, 6)).toHaveText("—");
    expect(posts).toHaveLength(6);

    // Resend: the row goes back to pending, and the listener (now answering 200) gets it once more.
    answer = 200;
    await row.getByRole("button", { name: /^Resend Test/ }).click();
    await expect.poll(() => posts.length, { timeout: 30_000 }).toBe(7);
    await expect(async () => {
      await page.reload();
      await expect(cell(row, 3)).toHaveText("sent", { timeout: 1_000 });
    }).toPass({ timeout: 30_000, intervals: [500, 1_000] });
    await expect(cell(row, 4)).toHaveText("1");
    await expect(cell(row, 7).locator("time")).toHaveCount(1);
    expect(JSON.parse(posts[6]!) as { text: string }).toMatchObject({ text: expect.stringContaining("Test message") });

    const actions = await withDb(async (c) => {
      const r = await c.query<{ action: string }>(
        `SELECT e.action FROM "AuditEvent" e JOIN "StaffUser" s ON s.id::text = e."actorId" WHERE s.email = $1 AND e.action IN ('admin:test_notification', 'admin:resend_notification') AND e."occurredAt" >= $2 ORDER BY e.pos`,
        [admin.email, startedAt],
      );
      return r.rows.map((x) => x.action);
    });
    expect(actions).toEqual(["admin:test_notification", "admin:resend_notification"]);
  } finally {
    await page.goto("/admin");
    await slack.getByRole("button", { name: "Turn Slack off" }).click();
    await expect(slack.getByTestId("slack-status")).toHaveText("off");
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
