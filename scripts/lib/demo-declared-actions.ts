// The demo's admin-declared action (docs/action-kinds.md "Declaring an action"): `issue_store_credit` on each demo
// tenant's sandbox shop — the credit's amount and currency, and the buyer, from the shop's own quote
// (GET /store-credit/quote?order=N), never from the model. Seeded active, as version 1 proposed by the tenant's admin;
// the demo data has one admin per tenant, so the seed stands in for the second admin (decidedById null) — a new
// version declared in Admin → Actions waits for a second admin like any other. Called once when the demo data is
// loaded (scripts/lib/database.ts), not by the tests' template (their tool lists stay the catalogue's).
import type { PrismaClient } from "../../lib/server/db/generated/client";
import { actionDeclarationSpec, type ActionDeclarationSpec } from "../../lib/domain/action-declaration";
import { demoTenants, demoUuid } from "./demo-data";

/** The declaration, checked against the admin API's own schema when this module loads. */
export const demoStoreCreditSpec: ActionDeclarationSpec = actionDeclarationSpec.parse({
  name: "issue_store_credit",
  description:
    "Issue store credit for one of the signed-in customer's orders when they ask for credit instead of a refund (for example a damaged or late order). The shop decides the amount; a person approves it.",
  input: [
    {
      name: "order_id",
      type: "string",
      description: "The order number, e.g. ORD-1001",
      pattern: "^[A-Z0-9-]{3,40}$",
      maxLength: 40,
    },
    {
      name: "reason",
      type: "string",
      description: "Why the customer gets credit",
      enum: ["damaged", "late", "goodwill"],
    },
  ],
  derive: { path: "/store-credit/quote?order={order_id}" },
  fields: [
    { key: "customer", pointer: "/customer/name", label: { en: "Customer", es: "Cliente" }, clear: false },
    {
      key: "amount",
      pointer: "/credit/amount_minor",
      label: { en: "Amount (minor units)", es: "Importe (céntimos)" },
      clear: true,
    },
    { key: "currency", pointer: "/credit/currency", label: { en: "Currency", es: "Moneda" }, clear: true },
  ],
  sentence: {
    en: "Issue {amount} {currency} (minor units) of store credit to {customer}.",
    es: "Emitir {amount} {currency} (céntimos) de saldo a {customer}.",
  },
  policy: { approvals: 1, stepUp: false, money: { amountKey: "amount", currencyKey: "currency" } },
  execute: { action: "issue_store_credit" },
});

/** Seeds the active issue_store_credit declaration of every demo tenant (right after seedDemo loaded the demo). */
export async function declareDemoActions(tx: Pick<PrismaClient, "actionDeclaration">): Promise<void> {
  const now = new Date();
  for (const t of demoTenants) {
    const admin = t.staff.find((s) => s.roles.includes("admin"));
    if (!admin) continue;
    await tx.actionDeclaration.create({
      data: {
        id: demoUuid(`declared-action:${t.slug}:${demoStoreCreditSpec.name}:1`),
        tenantId: demoUuid(`tenant:${t.slug}`),
        name: demoStoreCreditSpec.name,
        version: 1,
        status: "active",
        spec: demoStoreCreditSpec,
        proposedById: demoUuid(`staff:${admin.email}`),
        decidedAt: now,
      },
    });
  }
}
