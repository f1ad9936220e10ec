// A shipping address change, the first kind beside the refund (docs/action-kinds.md), as a reviewer and the customer
// meet it: the queue row names the kind and the new address; the proposal page shows the address on record and the
// new one field by field, the changed ones marked, and says that only the customer confirms a change within one
// country (no Approve button); the customer confirms on a phone through the link the agent was given (the link then
// refuses a second use); the shop's action endpoint (a stand-in here that checks the Standard Webhooks signature with
// the secret the product generated, as the sandbox shop does) carries it out once and the page says so with the
// shop's reference; ops then find the execution on the Executions page and open its detail (the fields as approved,
// before → after); the Decided view and an auditor's trace page present it too.
// Runs alone (the serial project): it turns the tool on for shop-us's web channel and sets that tenant's endpoint.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { staff, useSession } from "./support/auth";
import { withDb, freshOrder } from "./support/db";
import { agentCall, baseURL } from "./support/gateway";
import { allowTool } from "./support/shop-stand-in";
import { hydrated } from "./support/ui";

const TENANT = "shop-us";
const TOOL = "prepare_address_change";
const onRecord = {
  name: "John Smith",
  line1: "500 Market St",
  line2: null,
  city: "San Francisco",
  postalCode: "94105",
  region: "CA",
  country: "US",
};

test("a reviewer sees an address change before → after; the customer confirms it on a phone, and the shop carries it out once", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  let secret = "";
  const received: { key: string; body: Record<string, unknown> }[] = [];
  const answers = new Map<string, string>();
  const endpoint: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c.toString()));
    req.on("end", () => {
      const headers = {
        "webhook-id": String(req.headers["webhook-id"] ?? ""),
        "webhook-timestamp": String(req.headers["webhook-timestamp"] ?? ""),
        "webhook-signature": String(req.headers["webhook-signature"] ?? ""),
      };
      const key = decodeURIComponent(/^\/actions\/([^/?]+)/.exec(req.url ?? "")?.[1] ?? "");
      try {
        new Webhook(secret).verify(req.method === "GET" ? key : raw, headers, { jsonParse: false });
      } catch {
        res.writeHead(401, { "content-type": "application/json" }).end('{"error":"invalid_signature"}');
        return;
      }
      if (req.method === "GET") {
        const known = answers.get(key);
        res.writeHead(known ? 200 : 404, { "content-type": "application/json" }).end(known ?? '{"error":"not_found"}');
        return;
      }
      const body = JSON.parse(raw) as { idempotency_key: string };
      const answer =
        answers.get(body.idempotency_key) ?? JSON.stringify({ status: "succeeded", reference: "adr_e2e_1" });
      if (!answers.has(body.idempotency_key)) received.push({ key: body.idempotency_key, body });
      answers.set(body.idempotency_key, answer);
      res.writeHead(200, { "content-type": "application/json" }).end(answer);
    });
  });
  await new Promise<void>((resolve) => endpoint.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/actions`;
  const admin = staff(TENANT, "admin");
  const reviewer = staff(TENANT, "reviewer");
  let disallow: (() => Promise<void>) | undefined;
  try {
    // The tenant's admin sets the endpoint (the product generates the secret, shown once) …
    await useSession(page, admin);
    const saved = await page.request.put("/api/admin/action-endpoint", {
      data: { url, stepUpPassword: admin.password },
      headers: { origin: new URL(baseURL).origin },
    });
    expect(saved.status(), await saved.text()).toBe(200);
    secret = ((await saved.json()) as { secret: string }).secret;
    // … and allows the tool on the web channel and its key (as Admin → Channels would; a new tool is allowed nowhere
    // until an admin allows it).
    disallow = await allowTool(TENANT, TOOL);

    const number = await freshOrder(TENANT, 5000);
    await withDb((c) =>
      c.query(`UPDATE "Order" SET "shippingAddress" = $1::jsonb WHERE "number" = $2`, [
        JSON.stringify(onRecord),
        number,
      ]),
    );
    const prepared = await agentCall(TENANT, TOOL, {
      order_id: number,
      new_address: {
        name: onRecord.name,
        line1: "600 Market St",
        line2: null,
        city: onRecord.city,
        postal_code: onRecord.postalCode,
        region: onRecord.region,
        country: "us",
      },
    });
    expect(prepared, JSON.stringify(prepared)).toMatchObject({ code: "approval_required" });
    const proposalId = String(prepared.result!.proposal_id);

    // The queue: the kind's name and the new address on one line.
    await useSession(page, reviewer);
    await page.goto("/queue");
    const row = page.locator(`[data-proposal-id="${proposalId}"]`);
    await expect(row).toContainText("Shipping address change");
    await expect(row).toContainText("John Smith, 600 Market St, 94105 San Francisco, CA, US");

    // The page: before → after, field by field, the changed one marked.
    await page.goto(`/proposals/${proposalId}`);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Shipping address change");
    const review = page.getByTestId("kind-review");
    const street = review.locator('[data-field="line1"]');
    await expect(street).toHaveAttribute("data-changed", "true");
    await expect(street).toContainText("500 Market St");
    await expect(street).toContainText("600 Market St");
    await expect(review.locator('[data-field="city"]')).not.toHaveAttribute("data-changed", "true");
    await expect(review.locator('[data-field="order"]')).toContainText(number);

    // Within one country only the customer confirms (docs/action-kinds.md "Who confirms"): the reviewer is told so and
    // offered no approval, only a rejection.
    const consent = page.getByTestId("customer-confirmation");
    await expect(consent).toContainText("Waiting for the customer to confirm on their link.");
    await expect(consent).toContainText("Only the customer confirms this action; reviewers may reject it.");
    await expect(page.getByRole("button", { name: "Reject", exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: "Approve", exact: true })).toHaveCount(0);

    // The customer, on a phone, opens the link the agent was given: the hashed change and nothing else, then Confirm.
    const confirmUrl = new URL(String(prepared.result!.confirm_url));
    const phone = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 }, isMobile: true });
    const customer = await phone.newPage();
    await customer.goto(confirmUrl.pathname);
    await expect(customer.getByRole("heading", { level: 1 })).toContainText("Shipping address change");
    await expect(customer.locator("main")).toContainText("600 Market St");
    await expect(customer.locator("main")).not.toContainText("@");
    const overflow = await customer.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await customer.getByRole("button", { name: "Confirm" }).click();
    await expect(customer).toHaveURL(/\/confirm\/result\?outcome=confirmed&lang=en$/);
    await expect(customer.getByRole("status")).toContainText("you confirmed it");
    // The link works once: opened again, it is refused with its code.
    await customer.goto(confirmUrl.pathname);
    await expect(customer.getByRole("heading", { level: 1 })).toHaveText("This link cannot be used");
    await expect(customer.locator("main")).toContainText("link_used");
    await phone.close();

    // Carried out once at the shop, with the key and the hashed after; the page follows.
    await page.reload();
    await expect(page.getByTestId("outcome")).toContainText("Approved and done: the shop confirmed it.", {
      timeout: 30_000,
    });
    await expect(page.getByTestId("kind-execution")).toContainText("adr_e2e_1");
    expect(received).toHaveLength(1);
    expect(received[0]!.key).toBe(`change_shipping_address-${proposalId}`);
    expect(received[0]!.body).toMatchObject({
      kind: "change_shipping_address",
      subject: { type: "order", ref: number },
      params: { after: { line1: "600 Market St", postalCode: "94105", country: "US" } },
    });

    // Ops: the Executions page lists it (found by its order number) with the kind, its one line and the shop's
    // reference, and its detail shows the fields as approved, before → after — from the hashed params.
    const executionId = (
      await withDb((c) => c.query<{ id: string }>(`SELECT id FROM "Execution" WHERE "proposalId" = $1`, [proposalId]))
    ).rows[0]!.id;
    await useSession(page, staff(TENANT, "ops"));
    await page.goto("/executions");
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Executions");
    await page.getByRole("searchbox", { name: "Search" }).fill(number);
    await page.getByRole("button", { name: "Search" }).click();
    const list = page.getByRole("table", { name: "All executions" });
    const item = list.locator(`tr[data-execution-id="${executionId}"]`);
    await expect(item).toContainText("Shipping address change");
    await expect(item).toContainText("John Smith, 600 Market St, 94105 San Francisco, CA, US");
    await expect(item).toContainText("adr_e2e_1");
    await expect(list.locator("tbody tr")).toHaveCount(1);

    await (await hydrated(item.getByRole("link", { name: `Execution details for order ${number}` }))).click();
    await expect(page).toHaveURL(new RegExp(`/executions/${executionId}$`));
    await expect(page.getByRole("heading", { level: 1 })).toContainText(number);
    await expect(page.getByRole("heading", { name: "What is being done" })).toBeVisible();
    const fields = page.getByTestId("execution-kind-fields");
    const changed = fields.locator('[data-field="line1"]');
    await expect(changed).toHaveAttribute("data-changed", "true");
    await expect(changed).toContainText("500 Market St");
    await expect(changed).toContainText("600 Market St");
    await expect(fields.locator('[data-field="city"]')).not.toHaveAttribute("data-changed", "true");
    await expect(page.getByTestId("action-reference")).toHaveText("adr_e2e_1");
    await expect(page.getByTestId("idempotency-key")).toHaveText(`change_shipping_address-${proposalId}`);
    const timeline = page.getByRole("list", { name: "Timeline" });
    await expect(timeline.locator('li[data-action="execution:succeeded"]')).toContainText("Shop: action done");

    // The reviewer's Decided view finds it by its order number: the kind and its one line where a refund has an amount.
    await useSession(page, reviewer);
    await page.goto(`/decided?q=${encodeURIComponent(number)}`);
    const decided = page.locator(`[data-proposal-id="${proposalId}"]`).first();
    await expect(decided).toContainText("Shipping address change");
    await expect(decided).toContainText("600 Market St");

    // An auditor's trace page: the proposal's panel names the kind and shows the hashed change, before → after.
    const traceId = (
      await withDb((c) => c.query<{ traceId: string }>(`SELECT "traceId" FROM "Proposal" WHERE id = $1`, [proposalId]))
    ).rows[0]!.traceId;
    await useSession(page, staff(TENANT, "auditor"));
    await page.goto(`/audit/traces/${encodeURIComponent(traceId)}`);
    const panel = page.locator(`article[data-proposal-id="${proposalId}"]`);
    await expect(panel.locator(`[data-kind="change_shipping_address"]`)).toHaveText("Shipping address change");
    await expect(panel.locator('[data-field="line1"]')).toHaveText("500 Market St → 600 Market St");
  } finally {
    await disallow?.();
    await withDb(async (c) => {
      await c.query(`DELETE FROM "ActionEndpoint" WHERE "tenantId" = (SELECT id FROM "Tenant" WHERE slug = $1)`, [
        TENANT,
      ]);
    });
    await new Promise<void>((resolve) => endpoint.close(() => resolve()));
  }
});
