// Demo: one proposal of each of the newer kinds waiting for review in each demo tenant — a contact change
// (update_customer_contact), a free replacement of a delivered order (create_order), a bulk message to the
// tenant's demo segment (send_bulk_message) and, where the demo declared it, store credit (the admin-declared
// issue_store_credit, a declared_action whose amount the shop's quote decides) — made by the demo agent through the real gateway, like the refunds
// (./demo-pending.ts calls this after its own top-up). Idempotent: a kind that already has a proposal waiting (pending,
// not expired) gets none, so a restart never piles them up. Needs the tenant's action endpoint (every one of these is
// carried out by the shop) and the tool on the demo agent's key (a demo database seeded before them: demo:reset).
import { openProposalStatuses, proposalStatus } from "../../lib/domain/proposal-state";
import type { PrismaClient } from "../../lib/server/db/generated/client";
import { customerId, type demoTenants } from "./demo-data";
import { demoSegments } from "./demo-segments";
import { demoStoreCreditSpec } from "./demo-declared-actions";

/** The newer kinds the top-up leaves one of each, and the tool that prepares it. */
export const demoNewKinds = [
  { kind: "update_customer_contact", tool: "prepare_contact_change" },
  { kind: "create_order", tool: "prepare_replacement_order" },
  { kind: "send_bulk_message", tool: "prepare_bulk_message" },
] as const;

/** A kind's proposal is tried for at most this many customers or orders. */
const ATTEMPTS = 3;

type Tenant = (typeof demoTenants)[number];
/** Asks the gateway for one tool call as the demo agent, for `customer`: true when a proposal awaits review. */
export type AskAs = (
  customer: string,
  callId: string,
  tool: string,
  input: Record<string, unknown>,
) => Promise<boolean>;

export async function topUpNewKinds(
  prisma: PrismaClient,
  t: Tenant,
  tenantId: string,
  tools: Set<string>,
  ask: AskAs,
): Promise<void> {
  const waiting = await prisma.proposal.findMany({
    where: { tenantId, status: proposalStatus.pendingApproval, expiresAt: { gt: new Date() } },
    select: { kind: true },
  });
  const due = (kind: string, tool: string) => tools.has(tool) && !waiting.some((w) => w.kind === kind);
  // Neither the first customer (agent:demo and the tests act for them) nor the last (agent:demo's cancellation).
  const middle = t.customers.slice(1, -1);

  if (due("update_customer_contact", "prepare_contact_change")) {
    const rows = await prisma.customer.findMany({
      where: { tenantId, id: { in: middle.map((c) => customerId(t.slug, c.key)) } },
      select: { id: true, email: true },
      orderBy: { id: "asc" },
    });
    for (const c of rows.slice(0, ATTEMPTS)) {
      const seeded = middle.find((m) => customerId(t.slug, m.key) === c.id)!.email;
      const [local, domain] = seeded.split("@");
      // The seeded address, or the demo's other one when the seeded one is on record (a change carried out before).
      const other = c.email === seeded ? `${local}.nuevo@${domain}` : seeded;
      if (await ask(c.id, `contact_${c.id}`, "prepare_contact_change", { field: "email", new_value: other })) break;
    }
  }

  if (due("create_order", "prepare_replacement_order")) {
    const orders = await prisma.order.findMany({
      where: {
        tenantId,
        number: { in: middle.flatMap((c) => c.orders.map((o) => o.number)) },
        fulfilment: "delivered",
        status: { in: ["paid", "partially_refunded"] },
        proposals: { none: { status: { in: [...openProposalStatuses, proposalStatus.rejected] } } },
      },
      select: { number: true, customerId: true, items: true },
      orderBy: { number: "asc" },
    });
    for (const o of orders.slice(0, ATTEMPTS)) {
      const [line] = o.items as { sku: string }[];
      if (!line) continue;
      const input = { order_id: o.number, items: [{ sku: line.sku, quantity: 1 }], reason: "damaged" };
      if (await ask(o.customerId, `replace_${o.number}`, "prepare_replacement_order", input)) break;
    }
  }

  const segment = demoSegments[t.slug];
  if (segment && due("send_bulk_message", "prepare_bulk_message")) {
    // Asked by a staff member's assistant in a conversation with a verified end user: a demo customer here.
    const asker = customerId(t.slug, middle[0]!.key);
    await ask(asker, `bulk_${segment.slug}`, "prepare_bulk_message", {
      segment: segment.slug,
      channel: "email",
      text: segment.text,
    });
  }

  // The admin-declared store credit (./demo-declared-actions.ts): its tool is the tenant's own, not on the key's list.
  const declared = await prisma.actionDeclaration.findFirst({
    where: { tenantId, name: demoStoreCreditSpec.name, status: "active" },
    select: { id: true },
  });
  if (declared && !waiting.some((w) => w.kind === "declared_action")) {
    const orders = await prisma.order.findMany({
      where: {
        tenantId,
        number: { in: middle.flatMap((c) => c.orders.map((o) => o.number)) },
        status: { in: ["paid", "partially_refunded"] },
      },
      select: { number: true, customerId: true },
      orderBy: { number: "desc" },
      take: ATTEMPTS,
    });
    for (const o of orders)
      if (
        await ask(o.customerId, `credit_${o.number}`, demoStoreCreditSpec.name, { order_id: o.number, reason: "late" })
      )
        break;
  }
}
