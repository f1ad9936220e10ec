import { expect, test, type Browser, type Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { signIn, useSession, staff } from "./support/auth";
import { freshOrder, withDb } from "./support/db";
import { proposeRefund } from "./support/gateway";
import { hydrated } from "./support/ui";

const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://localhost:${port}`;
const TENANT = "tienda-es";

/** The e2e server's sandbox provider, through its control endpoint (faults). */
async function sandbox(method: string, path: string, body?: unknown) {
  const url = readFileSync(".data/e2e-sandbox-url", "utf8").trim();
  const res = await fetch(`${url}/__control/${path}`, {
    method,
    headers: {
      authorization: "Bearer demo-sandbox-control-token",
      ...(body ? { "content-type": "application/json" } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  expect(res.ok, await res.clone().text()).toBe(true);
}

const paymentRefOf = (proposalId: string) =>
  withDb(
    async (db) =>
      (await db.query(`SELECT "recipientRef", hash FROM "Proposal" WHERE id = $1`, [proposalId])).rows[0] as {
        recipientRef: string;
        hash: string;
      },
  );
const executionOf = (proposalId: string) =>
  withDb(
    async (db) =>
      (await db.query(`SELECT * FROM "Execution" WHERE "proposalId" = $1`, [proposalId])).rows[0] as
        { id: string; status: string } | undefined,
  );

/** A reviewer approves through the JSON route, signed in in a browser context of their own. */
async function approveAsReviewer(browser: Browser, proposalId: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signIn(page, staff(TENANT, "reviewer")); // a fresh sign-in: approving needs a recent step-up
  const { hash } = await paymentRefOf(proposalId);
  const res = await page.request.post(`/api/proposals/${proposalId}/approve`, {
    data: { hash },
    headers: { origin: baseURL },
  });
  expect(res.status(), await res.text()).toBe(200);
  await context.close();
}

const executionRow = (page: Page, proposalId: string) =>
  page
    .getByRole("table", { name: /^(All executions|Todas las ejecuciones)$/ })
    .locator(`tr[data-proposal-id="${proposalId}"]`);

test.describe.configure({ mode: "serial" });

test("ops sees an approved proposal's execution reach succeeded on the Executions page without reloading", async ({
  page,
  browser,
}) => {
  const order = await freshOrder(TENANT, 2_345);
  const proposalId = await proposeRefund(TENANT, order);
  await useSession(page, staff(TENANT, "ops"), { landing: true });
  await (await hydrated(page.getByRole("link", { name: /^(Executions|Ejecuciones)$/ }))).click();
  await expect(page).toHaveURL(/\/executions$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await approveAsReviewer(browser, proposalId);
  const row = executionRow(page, proposalId);
  await expect(row).toBeVisible({ timeout: 30_000 }); // polled in
  await expect(row.locator('[data-state="succeeded"]')).toBeVisible({ timeout: 30_000 });
  const ex = await executionOf(proposalId);
  expect(ex?.status).toBe("succeeded");
  await expect(row).toContainText(`refund-${proposalId}`); // the idempotency key
  await expect(row).toContainText("2345 EUR"); // exact minor units, now labelled as such
});

for (const role of ["reviewer", "auditor"] as const) {
  test(`${role === "auditor" ? "an" : "a"} ${role} cannot open the Executions page nor its JSON routes`, async ({
    page,
  }) => {
    await useSession(page, staff(TENANT, role), { landing: true });
    await expect(page.getByRole("link", { name: /^(Executions|Ejecuciones)$/ })).toHaveCount(0);
    await page.goto("/executions");
    await expect(page).toHaveURL(/\/forbidden/);
    expect((await page.request.get("/api/executions")).status()).toBe(403);
    expect((await page.request.get("/api/executions/overview")).status()).toBe(403);
    const anyExecution = await withDb(
      async (db) => (await db.query(`SELECT id FROM "Execution" LIMIT 1`)).rows[0] as { id: string } | undefined,
    );
    const check = await page.request.post(
      `/api/executions/${anyExecution?.id ?? "00000000-0000-4000-8000-000000000000"}/check`,
      {
        data: {},
        headers: { origin: baseURL },
      },
    );
    expect(check.status()).toBe(403);
  });
}

test("an in-doubt execution shows in the in-doubt queue with Check now (and no re-send button); Check now reconciles it", async ({
  page,
  browser,
}) => {
  // Many waits in a row (the worker's unknown outcome, the reconciler twice, the live row): the default 60 s
  // is their sum's lower end on a loaded machine, not a bound on any one of them.
  test.slow();
  const order = await freshOrder(TENANT, 3_456);
  const proposalId = await proposeRefund(TENANT, order);
  const { recipientRef: pi } = await paymentRefOf(proposalId);
  // The provider fails every create for this payment intent: the worker's outcome is unknown. Reads still
  // answer until then, because the worker reads the payment again before it sends (what is left to refund);
  // once the outcome is unknown, reads fail too, so the reconciler cannot find out and it stays in doubt.
  await sandbox("POST", "faults", { kind: "fail_5xx", on: "create", paymentIntent: pi, once: false });
  try {
    await useSession(page, staff(TENANT, "ops"));
    await page.goto("/executions");
    await approveAsReviewer(browser, proposalId);
    await expect.poll(async () => (await executionOf(proposalId))?.status, { timeout: 30_000 }).toBe("unknown");
    await sandbox("POST", "faults", { kind: "fail_5xx", on: "read", paymentIntent: pi, once: false });
    const doubt = page
      .getByRole("table", { name: /^(In-doubt queue|Cola en duda)$/ })
      .locator("tr", { hasText: order });
    await expect(doubt).toBeVisible({ timeout: 15_000 });
    const checkNow = doubt.getByRole("button", { name: /^(Check now|Comprobar ahora)/ });
    await expect(checkNow).toBeVisible();
    await expect(page.getByRole("button", { name: /retry|re-?send|reintentar|reenviar/i })).toHaveCount(0);
    // On a phone the in-doubt queue is a list of cards, each with its Check now; the page never scrolls sideways.
    const phone = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 } });
    const small = await phone.newPage();
    await useSession(small, staff(TENANT, "ops"));
    await small.goto("/executions");
    const card = small.getByRole("list", { name: /^(In-doubt queue|Cola en duda)$/ }).locator("li", { hasText: order });
    await expect(card.getByRole("button", { name: /^(Check now|Comprobar ahora)/ })).toBeVisible();
    expect(await small.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await phone.close();
    await checkNow.click();
    // The outcome arrives when the reconciler has asked: the provider still does not answer → still in doubt.
    await expect(
      page.locator("[data-sonner-toast]", { hasText: new RegExp(`${order}: (still in doubt|sigue en duda)`) }),
    ).toBeVisible({ timeout: 30_000 });
    await expect(doubt.getByRole("status")).toContainText(/still in doubt|sigue en duda/);
    await expect
      .poll(() =>
        withDb(async (db) =>
          Number(
            (
              await db.query(
                `SELECT count(*) FROM "AuditEvent" WHERE action = 'execution:check_now' AND "proposalId" = $1`,
                [proposalId],
              )
            ).rows[0].count,
          ),
        ),
      )
      .toBeGreaterThanOrEqual(1);
  } finally {
    await sandbox("DELETE", "faults");
  }
  // The provider answers again: Check now → the reconciler asks, finds no refund, re-sends with the same key.
  const doubt = page.getByRole("table", { name: /^(In-doubt queue|Cola en duda)$/ }).locator("tr", { hasText: order });
  await doubt.getByRole("button", { name: /^(Check now|Comprobar ahora)/ }).click();
  // Check now reports what the reconciler found (a toast), and the row updates by itself.
  await expect(
    page.locator("[data-sonner-toast]", {
      hasText: new RegExp(
        `${order}: (settled — the refund succeeded|cerrada — el reembolso se completó)|already settled \\(Succeeded\\)|ya está cerrado \\(Completada\\)`,
      ),
    }),
  ).toBeVisible({
    timeout: 45_000,
  });
  await expect(executionRow(page, proposalId).locator('[data-state="succeeded"]')).toBeVisible({ timeout: 15_000 });
  await expect(doubt).toHaveCount(0);
  // The execution's detail tells the whole story: the unknown answer, Check now, the reconciler's findings, the success.
  await executionRow(page, proposalId)
    .getByRole("link", { name: new RegExp(order) })
    .click();
  const timeline = page.getByRole("list", { name: /^(Timeline|Cronología)$/ });
  // Settled: the send and the success are the story; the "still in doubt" lines between them are folded in place.
  for (const action of ["execution:send", "execution:succeeded"])
    await expect(timeline.locator(`li[data-action="${action}"]`).first()).toBeVisible();
  const folded = timeline.locator("li[data-superseded]").first();
  await expect(folded).toContainText(
    /earlier lines? while in doubt, superseded by the settlement|mientras estaba en duda, superadas por el resultado/,
  );
  await expect(folded.locator('li[data-action="execution:unknown"]').first()).toBeHidden();
  await folded.locator("summary").click();
  for (const action of ["execution:unknown", "execution:check_now", "execution:reconcile"]) {
    await expect(folded.locator(`li[data-action="${action}"]`).first()).toBeVisible();
  }
  await expect(folded.locator('li[data-action="execution:reconcile"]').first()).toContainText(
    /did not answer|no respondió/,
  );
  await expect(page.getByTestId("last-error")).toHaveCount(0); // cleared once the refund succeeded
});
