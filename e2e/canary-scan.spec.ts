// Runs after every other browser spec (project "canary-scan" depends on "chromium"): plants canaries
// through the agent gateway, then scans a dump of the whole database and everything the server printed.
// Secrets (passwords, agent keys, end-user tokens, bearer tokens) must appear nowhere; the planted
// personal data (email, card number, IBAN) must not appear in clear outside the business tables that
// hold customer data by design (customers, orders, tickets). A reviewer also rejects a proposal in the
// browser with the canaries (and a phone number) in the customer message and the internal note: the
// Proposal table is scanned like every other, so those columns must hold them masked.
import { expect, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import { demoCredentials } from "../scripts/lib/demo-data";
import { freshOrder, withDb } from "./support/db";
import { signIn, staff } from "./support/auth";
import { proposeRefund } from "./support/gateway";

const port = Number(process.env.E2E_PORT ?? 3100);
const CANARY_EMAIL = "canary.leak.check@example.test";
const CANARY_CARD = "4242424242424242";
const CANARY_IBAN = "ES9121000418450200051332";
const CANARY_BEARER = "canarybearertoken0123456789abcdefXYZ";
const CANARY_PHONE = "+34 612 345 678";

/** Tables that hold customer data as business records, where a customer's own text may stay. */
const BUSINESS_TABLES = new Set(["Customer", "Order", "Payment", "SupportTicket"]);

test("no secret anywhere, and no planted personal data outside business tables, in the database or the logs", async ({
  page,
}) => {
  const creds = await demoCredentials();
  const es = creds.tenants[0]!;
  const agent = es.agents.find((a) => a.channel === "web_support")!;
  const customer = es.customers[0]!;

  // Plant the canaries where a careless gateway would copy them: arguments and headers.
  for (const body of [
    {
      type: "tool_use",
      id: "toolu_canary1",
      name: "lookup_order",
      input: { order_id: `${CANARY_EMAIL} ${CANARY_CARD} ${CANARY_IBAN}` },
    },
    {
      type: "tool_use",
      id: "toolu_canary2",
      name: "create_support_ticket",
      input: {
        category: "billing",
        priority: "low",
        summary: `Write to ${CANARY_EMAIL}, card ${CANARY_CARD}, IBAN ${CANARY_IBAN}`,
      },
    },
    {
      type: "tool_use",
      id: "toolu_canary3",
      name: "search_invoices",
      input: { email: CANARY_EMAIL, card: CANARY_CARD },
    },
  ]) {
    const res = await fetch(`http://localhost:${port}/api/agent/tool-calls`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${agent.key}`,
        "x-end-user-token": customer.endUserToken,
        "x-agent-model": `model Bearer ${CANARY_BEARER}`,
        "x-agent-prompt-version": CANARY_EMAIL,
      },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
  }

  // A reviewer types the canaries into a rejection: the message the agent reads, and the staff-only note.
  const rejected = await proposeRefund("shop-us", await freshOrder("shop-us", 2_345));
  await signIn(page, staff("shop-us", "reviewer"));
  await page.goto(`/proposals/${rejected}`);
  await page.getByRole("button", { name: "Reject", exact: true }).click();
  const dialog = page.getByRole("dialog");
  await dialog
    .getByLabel(/Reason/)
    .fill(`Write to ${CANARY_EMAIL} or call ${CANARY_PHONE}; card ${CANARY_CARD}, IBAN ${CANARY_IBAN}`);
  await dialog
    .getByLabel(/Internal note/)
    .fill(`Customer ${CANARY_EMAIL}, ${CANARY_PHONE}, card ${CANARY_CARD}, IBAN ${CANARY_IBAN}`);
  await dialog.getByRole("button", { name: "Reject proposal" }).click();
  await expect(page.getByRole("status")).toContainText("Rejected.");

  const secrets = [
    ...creds.tenants.flatMap((t) => t.staff.map((s) => s.password)),
    ...creds.tenants.flatMap((t) => t.agents.map((a) => a.key)),
    ...creds.tenants.flatMap((t) => t.customers.map((c) => c.endUserToken.split(".")[2]!)),
    CANARY_BEARER,
  ];
  const personal = [CANARY_EMAIL, CANARY_CARD, CANARY_IBAN, CANARY_PHONE];

  // A dump of every row of every table the product and its job queue own.
  const dump = await withDb(async (db) => {
    const tables = (
      await db.query<{ schema: string; name: string }>(
        `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
          WHERE table_schema IN ('public', 'graphile_worker') AND table_type = 'BASE TABLE'`,
      )
    ).rows;
    const out: { table: string; text: string }[] = [];
    for (const t of tables) {
      const rows = await db.query<{ j: string }>(`SELECT row_to_json(x)::text AS j FROM "${t.schema}"."${t.name}" x`);
      out.push({ table: t.name, text: rows.rows.map((r) => r.j).join("\n") });
    }
    return out;
  });
  expect(dump.some((t) => t.table === "AuditEvent" && t.text.length > 0)).toBe(true);
  const logs = readFileSync(".data/e2e-server.log", "utf8");
  expect(logs.length).toBeGreaterThan(0);

  const leaks: string[] = [];
  for (const t of dump) {
    for (const s of secrets) if (t.text.includes(s)) leaks.push(`secret ${s.slice(0, 6)}… in table ${t.table}`);
    if (!BUSINESS_TABLES.has(t.table))
      for (const p of personal) if (t.text.includes(p)) leaks.push(`${p} in table ${t.table}`);
  }
  for (const s of secrets) if (logs.includes(s)) leaks.push(`secret ${s.slice(0, 6)}… in the server log`);
  for (const p of personal) if (logs.includes(p)) leaks.push(`${p} in the server log`);
  expect(leaks).toEqual([]);

  // The planted calls were recorded (redacted), so the scan looked at something real.
  const planted = await withDb(
    async (db) =>
      (
        await db.query(
          `SELECT count(*)::int AS n FROM "AuditEvent" WHERE action LIKE '%search_invoices%' OR action LIKE '%lookup_order%'`,
        )
      ).rows[0].n as number,
  );
  expect(planted).toBeGreaterThan(0);
  // …and the rejection was stored (masked), so the Proposal columns were scanned with the canaries in them.
  const stored = await withDb(
    async (db) =>
      (
        await db.query<{ reason: string; note: string }>(
          `SELECT "rejectionReason" AS reason, "rejectionInternalNote" AS note FROM "Proposal" WHERE id = $1`,
          [rejected],
        )
      ).rows[0],
  );
  expect(stored?.reason).toMatch(/^Write to \S+ or call \S+/);
  expect(stored?.note).toMatch(/^Customer \S+/);
});
