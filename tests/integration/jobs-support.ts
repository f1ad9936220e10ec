// Helpers for the job tests (tests/integration/jobs-*.test.ts): extra orders for demo customers and
// proposals inserted directly, so a test controls status and expiry exactly.
import { db } from "@/lib/server/db/client";
import type { ProposalStatus } from "@/lib/server/db/generated/client";
import { customerId } from "../../scripts/lib/demo-data";
import { createPaidOrder, createProposalRow } from "../../scripts/lib/fixtures";

export const ES = "tienda-es";
export const US = "shop-us";

export async function tenantIdOf(slug: string): Promise<string> {
  return (await db().tenant.findUniqueOrThrow({ where: { slug }, select: { id: true } })).id;
}

export async function makeProposal(
  slug: string,
  opts: { status?: ProposalStatus; expiresAt: Date; customerKey?: string; amountMinor?: number },
) {
  const tenant = await db().tenant.findUniqueOrThrow({ where: { slug } });
  const cid = customerId(slug, opts.customerKey ?? (slug === ES ? "ana" : "john"));
  // One pending proposal per order: each gets its own paid order.
  const order = await createPaidOrder(db(), tenant, {
    customerId: cid,
    amountMinor: opts.amountMinor ?? 10_000,
    prefix: "ORD-T",
    holderName: "Ana García",
  });
  return createProposalRow(db(), tenant, order, {
    customerId: cid,
    expiresAt: opts.expiresAt,
    status: opts.status,
    amountMinor: opts.amountMinor ?? 10_000,
    holderName: "Ana García",
  });
}

export const minutesFromNow = (m: number) => new Date(Date.now() + m * 60_000);
