import { expect, test, type Page } from "@playwright/test";
import { staff, switchTo, type DemoRole } from "./support/auth";
import { freshOrder, withDb } from "./support/db";
import { demoTenants } from "../scripts/lib/demo-data";
import { proposeRefund } from "./support/gateway";

const proposal = (id: string) =>
  withDb(
    async (db) =>
      (await db.query(`SELECT id, status, "traceId", hash FROM "Proposal" WHERE id = $1`, [id])).rows[0] as {
        id: string;
        status: string;
        traceId: string;
        hash: string;
      },
  );

/** The test's own page, signed in as the tenant's `role` (switchTo), on its landing page. */
async function as(page: Page, tenant: string, role: DemoRole): Promise<Page> {
  await switchTo(page, staff(tenant, role), { landing: true });
  return page;
}

test.describe.configure({ mode: "serial" });

let proposalId: string;
let traceId: string;

test("an auditor searches the traceId of an approved and executed agent:demo run and sees the whole timeline", async ({
  page,
}) => {
  const order = await freshOrder("shop-us", 2_500);
  proposalId = await proposeRefund("shop-us", order, { conversation: true });
  const p = await proposal(proposalId);
  traceId = p.traceId;

  const reviewer = await as(page, "shop-us", "reviewer");
  await reviewer.goto(`/proposals/${proposalId}`);
  await reviewer.getByRole("button", { name: "Approve" }).click();
  await reviewer.getByRole("dialog").getByRole("button", { name: "Approve refund" }).click();
  await expect(reviewer.getByRole("status")).toContainText("Approved.");
  await expect.poll(async () => (await proposal(proposalId)).status, { timeout: 45_000 }).toBe("succeeded");

  const auditor = await as(page, "shop-us", "auditor");
  await auditor.goto("/audit");
  await auditor.getByLabel("Trace ID").fill(traceId);
  await auditor.getByRole("button", { name: "Search" }).click();
  await expect(auditor).toHaveURL(new RegExp(`/audit/traces/${traceId}$`));
  await expect(auditor.getByRole("heading", { level: 1 })).toContainText(traceId);
  const timeline = auditor.getByRole("list", { name: "Timeline" });
  for (const stage of ["agent", "proposal", "approval", "execution", "provider"])
    await expect(timeline.locator(`li[data-stage="${stage}"]`).first()).toBeVisible();
  await expect(timeline.locator('li[data-action="proposal:approve"][data-outcome="ok"]')).toHaveCount(1);
  await expect(timeline.locator('li[data-action="execution:succeeded"]')).toHaveCount(1);
  // In order: the first step is at +0 s and the agent's call comes before the approval.
  await expect(timeline.locator("li").first()).toContainText("+0 s");
  // People by name, not id; the reason in words, not its code.
  const approver = await withDb(
    async (db) =>
      (
        await db.query(
          `SELECT s.id, s.name FROM "Approval" a JOIN "StaffUser" s ON s.id = a."approverId" WHERE a."proposalId" = $1`,
          [proposalId],
        )
      ).rows[0] as {
        id: string;
        name: string;
      },
  );
  const approval = timeline.locator('li[data-action="proposal:approve"]');
  await expect(approval).toContainText(`Staff ${approver.name}`);
  await expect(approval).not.toContainText(approver.id);
  await expect(approval).toContainText(/Authentication: session confirmed within the step-up window/);
  const stages = await timeline.locator("li").evaluateAll((els) => els.map((e) => e.getAttribute("data-stage")));
  expect(stages.indexOf("proposal")).toBeLessThan(stages.indexOf("approval"));
  expect(stages.indexOf("approval")).toBeLessThan(stages.lastIndexOf("provider"));
  const card = auditor.locator(`article[data-proposal-id="${proposalId}"]`);
  await expect(card).toContainText(p.hash);
  await expect(card.locator('dd[title="damaged_item"]')).toHaveText("Damaged item"); // the reason in words, its code on hover
  await expect(card.locator("[data-auth-method]")).toHaveAttribute("data-auth-method", "session");
  await expect(card.locator("[data-execution-status]")).toHaveAttribute("data-execution-status", "succeeded");

  // The proposal page's trace link works for an auditor's view too (/audit?traceId=… opens the trace).
  await auditor.goto(`/audit?traceId=${traceId}`);
  await expect(auditor).toHaveURL(new RegExp(`/audit/traces/${traceId}$`));
  // The evidence pack downloads.
  const pack = await auditor.request.get(`/api/audit/evidence/${proposalId}`);
  expect(pack.status()).toBe(200);
  expect(((await pack.json()) as { proposal: { hash: string } }).proposal.hash).toBe(p.hash);
  // Every search is audited.
  const searches = await withDb(async (db) =>
    Number(
      (
        await db.query(`SELECT count(*) FROM "AuditEvent" WHERE "traceId" = $1 AND action = 'audit:view_trace'`, [
          `audit:${traceId}`,
        ])
      ).rows[0].count,
    ),
  );
  expect(searches).toBeGreaterThanOrEqual(2);
});

test("the fingerprint search for a demo customer's email finds that customer's events", async ({ page }) => {
  const email = demoTenants.find((t) => t.slug === "shop-us")!.customers[0]!.email;
  const auditor = await as(page, "shop-us", "auditor");
  await auditor.goto("/audit");
  await auditor.getByLabel("Email, IBAN or card number").fill(email);
  await auditor.getByRole("button", { name: "Search" }).click();
  const results = auditor.getByRole("table", { name: "Results" });
  await expect(results).toBeVisible();
  await expect(results.getByRole("link", { name: `Open trace ${traceId}` }).first()).toBeVisible();
  // The typed email is stored nowhere in the trail.
  const leaked = await withDb(async (db) =>
    Number(
      (
        await db.query(`SELECT count(*) FROM "AuditEvent" WHERE row_to_json("AuditEvent")::text ILIKE $1`, [
          `%${email}%`,
        ])
      ).rows[0].count,
    ),
  );
  expect(leaked).toBe(0);
});

test("a tienda-es auditor finds nothing of shop-us", async ({ page }) => {
  const auditor = await as(page, "tienda-es", "auditor");
  await auditor.goto(`/audit/traces/${traceId}`);
  await expect(auditor.getByText("No hay eventos de esta traza en tu inquilino.")).toBeVisible();
  const api = await auditor.request.get(`/api/audit/events?traceId=${traceId}`);
  expect(api.status()).toBe(200);
  expect(((await api.json()) as { events: unknown[] }).events).toEqual([]);
  const byProposal = await auditor.request.get(`/api/audit/events?proposalId=${proposalId}`);
  expect(((await byProposal.json()) as { events: unknown[] }).events).toEqual([]);
  expect((await auditor.request.get(`/api/audit/evidence/${proposalId}`)).status()).toBe(404);
});

for (const role of ["ops", "reviewer"] as const) {
  test(`${role} may look up one trace but not search the trail: no Audit entry, the search page is forbidden, broader requests are refused`, async ({
    page,
  }) => {
    await as(page, "shop-us", role);
    await expect(page.getByRole("navigation").getByRole("link", { name: "Audit" })).toHaveCount(0);
    await page.goto("/audit");
    await expect(page).toHaveURL(/\/forbidden/);
    await page.goto(`/audit?action=tool:prepare_refund`);
    await expect(page).toHaveURL(/\/forbidden/);
    await page.goto(`/audit/traces/${traceId}`);
    await expect(page.getByRole("heading", { level: 1 })).toContainText(traceId);
    await expect(page.getByRole("link", { name: "Download evidence pack" })).toHaveCount(0);
    const lookup = await page.request.get(`/api/audit/events?traceId=${traceId}`);
    expect(lookup.status()).toBe(200);
    expect(((await lookup.json()) as { events: unknown[] }).events.length).toBeGreaterThan(0);
    for (const path of [
      `/api/audit/events?traceId=${traceId}&outcome=ok`,
      `/api/audit/events?action=tool:prepare_refund`,
      `/api/audit/export?format=csv&traceId=${traceId}`,
      `/api/audit/evidence/${proposalId}`,
    ]) {
      const res = await page.request.get(path);
      expect(res.status(), path).toBe(403);
      expect(((await res.json()) as { code: string }).code).toBe("permission_denied");
    }
  });
}

test("an admin verifies the chain from the audit page; health reports the result; the auditor exports the search as CSV", async ({
  page,
}) => {
  const admin = await as(page, "shop-us", "admin");
  await admin.goto("/audit");
  const panel = admin.getByRole("region", { name: "Chain verification" });
  await panel.getByRole("button", { name: "Verify the chain now" }).click();
  await expect(panel.getByRole("status")).toContainText("every chain verifies");
  const health = (await (await admin.request.get("/api/health")).json()) as {
    status: string;
    checks: { auditChain: string };
  };
  expect(health).toMatchObject({ status: "ok", checks: { auditChain: "ok" } });

  const auditor = await as(page, "shop-us", "auditor");
  // Auditors see their own tenant's log status, not the admin's verification of every chain.
  await auditor.goto(`/audit?proposalId=${proposalId}&action=proposal:approve`);
  await expect(auditor.getByRole("region", { name: "Chain verification" })).toBeVisible();
  await expect(auditor.getByRole("button", { name: "Verify the chain now" })).toHaveCount(0);
  await expect(auditor.getByRole("table", { name: "Results" }).getByRole("row")).toHaveCount(2); // header + the approval
  const csv = await auditor.request.get(`/api/audit/export?format=csv&traceId=${traceId}`);
  expect(csv.status()).toBe(200);
  expect(csv.headers()["content-disposition"]).toMatch(/attachment; filename="audit-.*\.csv"/);
  const text = await csv.text();
  // One clock (docs/design.md "Times"): UTC, the search zone's local time beside it, and the actor's name.
  expect(text.split("\r\n")[0]).toMatch(/^leafIndex,occurredAt,occurredAtLocal,traceId,actorType,actorId,actorName,/);
  expect(text).toContain("execution:succeeded");
});
