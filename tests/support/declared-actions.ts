// What the files about admin-declared actions set up (declared-actions.test.ts, the conformance driver): a second,
// independent admin in a tenant, and an `issue_store_credit` declaration proposed by one admin and approved by the
// other through the admin use cases — the way an admin declares it in Admin → Actions.
import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import type { ActionDeclarationSpec } from "@/lib/domain/action-declaration";
import { approveDeclaration, proposeDeclaration } from "@/lib/server/admin/action-declarations";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";
import { actorFor, staffOf } from "./actors";

export const STORE_CREDIT = "grant_store_credit";

/** The contract's example: store credit for an order, amount and currency from the shop's quote. */
export function storeCreditSpec(overrides: Partial<ActionDeclarationSpec> = {}): ActionDeclarationSpec {
  return {
    name: STORE_CREDIT,
    description: "Issue store credit for an order when the customer asks for credit instead of a refund.",
    input: [
      {
        name: "order_id",
        type: "string",
        description: "The order number",
        pattern: "^[A-Z0-9-]{3,40}$",
        maxLength: 40,
      },
      { name: "reason", type: "string", description: "Why", enum: ["damaged", "late"] },
    ],
    derive: { path: "/store-credit/quote?order={order_id}" },
    fields: [
      { key: "customer", pointer: "/customer/name", label: { en: "Customer", es: "Cliente" }, clear: false },
      { key: "amount", pointer: "/credit/amount_minor", label: { en: "Amount", es: "Importe" }, clear: true },
      { key: "currency", pointer: "/credit/currency", label: { en: "Currency", es: "Moneda" }, clear: true },
    ],
    sentence: {
      en: "Issue {amount} {currency} of store credit to {customer}",
      es: "Emitir {amount} {currency} de saldo a {customer}",
    },
    policy: { approvals: 1, stepUp: false, money: { amountKey: "amount", currencyKey: "currency" } },
    execute: { action: "issue_store_credit" },
    ...overrides,
  };
}

/** The tenant's admin, and its auditor made a second admin (as admin-policy.test): independent of the first. */
export async function twoAdmins(tenant: string): Promise<{ admin: Actor; second: Actor }> {
  const auditor = staffOf(tenant, "auditor");
  const row = await db().staffUser.findUniqueOrThrow({ where: { email: auditor.email } });
  if (!row.roles.includes("admin"))
    await db().staffUser.update({ where: { id: row.id }, data: { roles: [...row.roles, "admin"] } });
  return { admin: await actorFor(staffOf(tenant, "admin").email), second: await actorFor(auditor.email) };
}

/** Declares `spec` in `tenant` (one admin proposes, the second approves): the active version's id. */
export async function declareActive(tenant: string, spec: ActionDeclarationSpec): Promise<string> {
  const { admin, second } = await twoAdmins(tenant);
  const { declaration } = await proposeDeclaration(admin, spec);
  await approveDeclaration(second, declaration.id, {});
  return declaration.id;
}

/** The stored subject ref of a declared action's proposal: its name and the digest of its exact input. */
export function declaredSubjectRef(name: string, input: Record<string, unknown>): string {
  return `${name}:${createHash("sha256")
    .update(canonicalize(input) ?? "")
    .digest("hex")
    .slice(0, 40)}`;
}
