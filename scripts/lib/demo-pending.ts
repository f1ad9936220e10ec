// Demo: a few proposals already waiting for review when the demo starts. They are made the way an agent
// makes them — a tool call through the real gateway (agent key, end-user token, budgets, proposal builder,
// audit) — not inserted by hand. Each start tops every demo tenant up to PENDING_PER_TENANT open proposals,
// so a demo started again after their expiry still has work waiting. The queue shows a mix of kinds: a refund
// that needs two reviewers, then — when the tenant has an action endpoint (npm start wires the sandbox shop) and
// its web_support agent may call the tools — an address change and a cancellation, then small refunds. Besides those
// PENDING_PER_TENANT, one of each newer kind (a contact change, a replacement order, a bulk message) waits where the
// tenant has an action endpoint: ./demo-pending-kinds.ts.
import { openProposalStatuses, proposalStatus } from "../../lib/domain/proposal-state";
import type { PrismaClient } from "../../lib/server/db/generated/client";
import { agentKey, customerId, demoNewAddresses, demoTenants, demoUuid, mintEndUserToken } from "./demo-data";
import { demoNewKinds, topUpNewKinds } from "./demo-pending-kinds";

export const PENDING_PER_TENANT = 3;

/** Sends one Anthropic-style tool_use block to the gateway and answers the parsed tool result content. */
export type SendToolCall = (body: unknown, headers: Record<string, string>) => Promise<{ code: string }>;

const reasons = ["damaged_item", "not_received", "wrong_item"] as const;

/** The kinds carried out by the shop, as the demo asks for them. */
const shopKinds = [
  { kind: "change_shipping_address", tool: "prepare_address_change" },
  { kind: "cancel_order", tool: "prepare_order_cancellation" },
] as const;

/** A kind's proposal is tried on at most this many orders (a refusal other than the order's own ends it sooner). */
const KIND_ATTEMPTS = 3;

export async function topUpDemoProposals(
  prisma: PrismaClient,
  send: SendToolCall,
  log: (msg: string) => void = () => undefined,
): Promise<Record<string, number>> {
  const created: Record<string, number> = {};
  const now = new Date();
  for (const t of demoTenants) {
    created[t.slug] = 0;
    const tenant = await prisma.tenant.findUnique({
      where: { slug: t.slug },
      select: { id: true, dualApprovalThresholdMinor: true },
    });
    if (!tenant) continue;
    // The newer kinds are topped up on their own (one of each): they do not count among these.
    const waiting = await prisma.proposal.findMany({
      where: {
        tenantId: tenant.id,
        status: proposalStatus.pendingApproval,
        expiresAt: { gt: now },
        kind: { notIn: demoNewKinds.map((k) => k.kind) },
      },
      select: { kind: true },
    });
    let need = PENDING_PER_TENANT - waiting.length;
    const tools = await toolsOfDemoAgent(prisma, tenant.id, t.slug);
    const connected = (await prisma.actionEndpoint.count({ where: { tenantId: tenant.id } })) > 0;
    const headersFor = async (customer: string) => ({
      authorization: `Bearer ${agentKey(t.slug, "web_support")}`,
      "x-end-user-token": await mintEndUserToken(t.slug, "web_support", customer),
      "x-agent-model": "demo-agent",
      "x-agent-prompt-version": "demo-start",
    });
    if (connected) {
      await topUpNewKinds(prisma, t, tenant.id, tools, async (customer, callId, name, input) => {
        const answer = await send(
          { type: "tool_use", id: `toolu_demo_${callId}`, name, input },
          await headersFor(customer),
        );
        if (answer.code === "approval_required") created[t.slug]! += 1;
        else log(`demo: ${t.slug}: ${name} answered ${answer.code}`);
        return answer.code === "approval_required";
      });
    }
    if (need <= 0) continue;
    // Orders nobody has asked about yet (no proposal other than expired ones: no open one, no rejection
    // cooldown), not fully refunded; one customer each so the queue does not look like duplicates.
    const orders = await prisma.order.findMany({
      where: {
        tenantId: tenant.id,
        // Neither the first customer's (`npm run agent:demo` and the tests act for that one) nor the last one's
        // (agent:demo's cancellation).
        number: { in: t.customers.slice(1, -1).flatMap((c) => c.orders.map((o) => o.number)) },
        status: { in: ["paid", "partially_refunded"] },
        proposals: { none: { status: { in: [...openProposalStatuses, proposalStatus.rejected] } } },
      },
      select: { number: true, customerId: true, capturedMinor: true, status: true, fulfilment: true },
      orderBy: { number: "asc" },
    });
    const usedCustomers = new Set<string>();
    const usedOrders = new Set<string>();
    const ask = async (o: (typeof orders)[number], name: string, input: Record<string, unknown>) => {
      const answer = await send(
        { type: "tool_use", id: `toolu_demo_${o.number}_${name}`, name, input },
        await headersFor(o.customerId),
      );
      if (answer.code === "approval_required") {
        usedCustomers.add(o.customerId);
        usedOrders.add(o.number);
        created[t.slug]! += 1;
        need -= 1;
      } else log(`demo: ${t.slug} ${o.number}: ${name} answered ${answer.code}; trying another order`);
      return answer.code === "approval_required";
    };
    const free = (o: (typeof orders)[number]) => !usedCustomers.has(o.customerId) && !usedOrders.has(o.number);
    const customerKeyOf = (o: (typeof orders)[number]) =>
      t.customers.find((c) => customerId(t.slug, c.key) === o.customerId)?.key;
    const refund = (o: (typeof orders)[number]) =>
      ask(o, "prepare_refund", { order_id: o.number, reason: reasons[created[t.slug]! % reasons.length] });

    // One above the tenant's two-reviewer threshold first (the four-eyes flow is worth seeing) …
    const threshold = tenant.dualApprovalThresholdMinor ?? Number.POSITIVE_INFINITY;
    for (const o of orders.filter((o) => o.capturedMinor >= threshold)) {
      if (need <= 0 || !customerKeyOf(o) || !free(o)) continue;
      if (await refund(o)) break;
    }
    // … then one of each kind the shop carries out, when the tenant can have it carried out and none waits already …
    for (const { kind, tool } of shopKinds) {
      if (!connected || !tools.has(tool) || waiting.some((w) => w.kind === kind)) continue;
      const open = orders.filter(
        (o) => free(o) && o.fulfilment === "unfulfilled" && o.capturedMinor < threshold && !!customerKeyOf(o),
      );
      for (const o of open.slice(0, KIND_ATTEMPTS)) {
        if (need <= 0) break;
        const customer = t.customers.find((c) => c.key === customerKeyOf(o))!;
        const input =
          tool === "prepare_address_change"
            ? { order_id: o.number, new_address: { name: customer.name, ...demoNewAddresses[t.slug]![0]! } }
            : { order_id: o.number, reason: "changed_mind" };
        if (await ask(o, tool, input)) break;
      }
    }
    // … then small refunds.
    for (const o of orders.filter((o) => o.capturedMinor < threshold)) {
      if (need <= 0) break;
      if (!customerKeyOf(o) || !free(o)) continue;
      await refund(o);
    }
  }
  return created;
}

/** The tools the demo web_support agent key may call (its own list and its channel's). */
async function toolsOfDemoAgent(prisma: PrismaClient, tenantId: string, slug: string): Promise<Set<string>> {
  const key = await prisma.agentKey.findUnique({
    where: { id: demoUuid(`agent-key:${slug}:web_support`) },
    select: { tenantId: true, allowedTools: true, channel: { select: { allowedTools: true } } },
  });
  if (!key || key.tenantId !== tenantId) return new Set();
  return new Set(key.allowedTools.filter((tool) => key.channel.allowedTools.includes(tool)));
}
