// Ops screens in a real browser at laptop and phone sizes: search by order that survives a reload, the
// execution detail opened from the list (timeline, copy button for the idempotency key), no sideways page
// scroll, axe; another tenant's execution answers 404 and shows nothing.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { signInByRequest, useSession, staff } from "./support/auth";
import { freshOrder, withDb } from "./support/db";
import { baseURL, proposeRefund } from "./support/gateway";
import { hydrated } from "./support/ui";

const TENANT = "tienda-es";
const sizes = [
  { name: "laptop", width: 1366, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

async function approveAsReviewer(browser: Browser, proposalId: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  // A fresh sign-in (approving needs a recent step-up), with the form's request: signing in is not this spec's subject.
  await signInByRequest(context, staff(TENANT, "reviewer"));
  const { hash } = await withDb(
    async (db) =>
      (await db.query(`SELECT hash FROM "Proposal" WHERE id = $1`, [proposalId])).rows[0] as { hash: string },
  );
  const res = await page.request.post(`/api/proposals/${proposalId}/approve`, {
    data: { hash },
    headers: { origin: baseURL },
  });
  expect(res.status(), await res.text()).toBe(200);
  await context.close();
}

/** A fresh order of the tenant, refunded through the agent, a reviewer's approval and the worker. */
async function succeededExecution(browser: Browser, amountMinor: number) {
  const order = await freshOrder(TENANT, amountMinor);
  const proposalId = await proposeRefund(TENANT, order);
  await approveAsReviewer(browser, proposalId);
  await expect.poll(async () => (await executionOf(proposalId))?.status, { timeout: 30_000 }).toBe("succeeded");
  return { order, proposalId, ex: (await executionOf(proposalId))! };
}

const executionOf = (proposalId: string) =>
  withDb(
    async (db) =>
      (
        await db.query(
          `SELECT id, status, "idempotencyKey", "providerRefundId" FROM "Execution" WHERE "proposalId" = $1`,
          [proposalId],
        )
      ).rows[0] as { id: string; status: string; idempotencyKey: string; providerRefundId: string | null } | undefined,
  );

async function noSidewaysScroll(page: Page, what: string, width: number) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${what} at ${width}px scrolls sideways by ${overflow}px`).toBeLessThanOrEqual(0);
}

async function noSeriousAxe(page: Page, what: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => `${what} ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

test.describe.configure({ mode: "serial" });

for (const size of sizes) {
  test(`${size.name}: search by order survives reload; the detail opens from the list with its timeline and a working copy button`, async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const { order, proposalId, ex } = await succeededExecution(browser, size.name === "phone" ? 1_390 : 1_366);

    // Light on the laptop, dark on the phone: both schemes pass axe.
    const context = await browser.newContext({
      baseURL,
      viewport: { width: size.width, height: size.height },
      colorScheme: size.name === "phone" ? "dark" : "light",
    });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
    const page = await context.newPage();
    // No push stream here: these pages then poll at their fallback pace, which the "not updating" check below
    // relies on (with the stream open they re-read only every 30 s; push itself is e2e/push.spec.ts).
    await page.route("**/api/stream/**", (route) => route.abort());
    await useSession(page, staff(TENANT, "ops"));
    await page.goto("/executions");
    await expect(page).toHaveTitle(/^(Executions|Ejecuciones)/);
    await noSidewaysScroll(page, "executions", size.width);

    // Search by order number: it goes into the URL and survives a reload.
    const search = page.getByRole("searchbox", { name: /^(Search|Buscar)$/ });
    await search.fill(order);
    await page.getByRole("button", { name: /^(Search|Buscar)$/ }).click();
    await expect(page).toHaveURL(new RegExp(`[?&]q=${order}`));
    await page.reload();
    await expect(search).toHaveValue(order);
    const list =
      size.name === "phone"
        ? page.getByRole("list", { name: /^(All executions|Todas las ejecuciones)$/ })
        : page.getByRole("table", { name: /^(All executions|Todas las ejecuciones)$/ });
    const item =
      size.name === "phone"
        ? list.locator(`li[data-execution-card="${ex.id}"]`)
        : list.locator(`tr[data-execution-id="${ex.id}"]`);
    await expect(item).toBeVisible();
    await expect(list.locator(size.name === "phone" ? "li[data-execution-card]" : "tbody tr")).toHaveCount(1);
    await expect(item.locator('[data-state="succeeded"]')).toBeVisible();
    await noSidewaysScroll(page, "executions (searched)", size.width);
    // A search for the provider refund id finds the same execution.
    await search.fill(ex.providerRefundId!);
    await page.getByRole("button", { name: /^(Search|Buscar)$/ }).click();
    await expect(item).toBeVisible();
    await expect(list.locator(size.name === "phone" ? "li[data-execution-card]" : "tbody tr")).toHaveCount(1);

    // Open the detail from the list.
    await (await hydrated(item.getByRole("link", { name: new RegExp(order) }))).click();
    await expect(page).toHaveURL(new RegExp(`/executions/${ex.id}$`));
    await expect(page.getByRole("heading", { level: 1 })).toContainText(order);
    await expect(page).toHaveTitle(new RegExp(order));
    const timeline = page.getByRole("list", { name: /^(Timeline|Cronología)$/ });
    await expect(timeline.locator('li[data-action="execution:send"]')).toBeVisible();
    await expect(timeline.locator('li[data-action="execution:succeeded"]')).toBeVisible();
    await expect(timeline.locator('li[data-action="execution:send"]')).toContainText(
      /Sent to the provider|Enviado al proveedor/,
    );
    await expect(page.getByTestId("idempotency-key")).toHaveText(ex.idempotencyKey);
    await expect(page.getByTestId("provider-refund-id")).toHaveText(ex.providerRefundId!);
    await expect(page.getByRole("link", { name: /^(Open the proposal|Abrir la propuesta)$/ })).toHaveAttribute(
      "href",
      `/proposals/${proposalId}`,
    );
    await expect(page.getByRole("link", { name: /^(Open its trace|Abrir su traza)$/ })).toHaveAttribute(
      "href",
      /\/audit\/traces\//,
    );

    await page.getByRole("button", { name: /^(Copy idempotency key|Copiar clave de idempotencia)$/ }).click();
    await expect(page.getByRole("button", { name: /^(Copied|Copiado)$/ })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(ex.idempotencyKey);
    await noSidewaysScroll(page, "execution detail", size.width);
    await noSeriousAxe(page, `execution detail ${size.name}`);
    await page.screenshot({ path: test.info().outputPath(`execution-detail-${size.name}.png`), fullPage: true });

    // Live data that stops answering says so instead of looking current.
    await page.route(`**/api/executions/${ex.id}`, (route) => route.fulfill({ status: 503, body: "{}" }));
    await expect(page.locator('[data-live="failing"]')).toContainText(
      /Not updating — retrying|Sin actualizar — reintentando/,
      { timeout: 15_000 },
    );
    await page.unroute(`**/api/executions/${ex.id}`);
    await expect(page.locator('[data-live="ok"]')).toBeVisible({ timeout: 15_000 });

    // Back to the list.
    await (await hydrated(page.getByRole("link", { name: /^(All executions|Todas las ejecuciones)$/ }))).click();
    await expect(page).toHaveURL(/\/executions/);
    await noSeriousAxe(page, `executions ${size.name}`);
    await page.screenshot({ path: test.info().outputPath(`executions-${size.name}.png`), fullPage: true });
    await context.close();
  });
}

test("another tenant's ops get 404 for the execution, on the JSON route and the page; a reviewer gets 403", async ({
  browser,
  page,
}) => {
  const { ex } = await succeededExecution(browser, 1_404);

  await useSession(page, staff("shop-us", "ops"));
  const res = await page.request.get(`/api/executions/${ex.id}`);
  expect(res.status()).toBe(404);
  const body = (await res.json()) as { code: string };
  expect(body.code).toBe("not_found");
  expect(JSON.stringify(body)).not.toContain("refund-");
  // The page streams behind its loading skeleton, so its HTTP status is already sent: it shows the not-found page.
  await page.goto(`/executions/${ex.id}`);
  await expect(page.getByRole("heading", { level: 1, name: /^(Not found|No encontrado)$/ })).toBeVisible();
  await expect(page.getByText(/refund-/)).toHaveCount(0);
  await page.goto(`/executions/not-a-uuid`);
  await expect(page.getByRole("heading", { level: 1, name: /^(Not found|No encontrado)$/ })).toBeVisible();
  expect((await page.request.get(`/api/executions/not-a-uuid`)).status()).toBe(400);

  const context = await browser.newContext({ baseURL });
  const reviewer = await context.newPage();
  await useSession(reviewer, staff(TENANT, "reviewer"));
  expect((await reviewer.request.get(`/api/executions/${ex.id}`)).status()).toBe(403);
  await reviewer.goto(`/executions/${ex.id}`);
  await expect(reviewer).toHaveURL(/\/forbidden/);
  await context.close();
});
