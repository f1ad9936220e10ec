// Demo: a few proposals already waiting for review when the demo starts. They are made the way an agent
// makes them — a prepare_refund tool call through the real gateway (agent key, end-user token, budgets,
// proposal builder, audit) — not inserted by hand. Each start tops every demo tenant up to PENDING_PER_TENANT
// open proposals, so a demo started again after their expiry still has work waiting.
import { openProposalStatuses, proposalStatus } from "../../lib/domain/proposal-state";
import type { PrismaClient } from "../../lib/server/db/generated/client";
import { agentKey, customerId, demoTenants, mintEndUserToken } from "./demo-data";

export const PENDING_PER_TENANT = 3;

/** Sends one Anthropic-style tool_use block to the gateway and answers the parsed tool result content. */
export type SendToolCall = (body: unknown, headers: Record<string, string>) => Promise<{ code: string }>;

const reasons = ["damaged_item", "not_received", "wrong_item"] as const;

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
    const waiting = await prisma.proposal.count({
      where: { tenantId: tenant.id, status: proposalStatus.pendingApproval, expiresAt: { gt: now } },
    });
    let need = PENDING_PER_TENANT - waiting;
    if (need <= 0) continue;
    // Orders nobody has asked about yet (no proposal other than expired ones: no open one, no rejection
    // cooldown), not fully refunded; one customer each so the queue does not look like duplicates.
    const orders = await prisma.order.findMany({
      where: {
        tenantId: tenant.id,
        // Not the first customer's: `npm run agent:demo` and the tests act for that one.
        number: { in: t.customers.slice(1).flatMap((c) => c.orders.map((o) => o.number)) },
        status: { in: ["paid", "partially_refunded"] },
        proposals: { none: { status: { in: [...openProposalStatuses, proposalStatus.rejected] } } },
      },
      select: { number: true, customerId: true, capturedMinor: true },
      orderBy: { number: "asc" },
    });
    // One above the tenant's two-reviewer threshold first (the four-eyes flow is worth seeing), then small ones.
    const threshold = tenant.dualApprovalThresholdMinor ?? Number.POSITIVE_INFINITY;
    const ordered = [
      ...orders.filter((o) => o.capturedMinor >= threshold).slice(0, 1),
      ...orders.filter((o) => o.capturedMinor < threshold),
    ];
    const usedCustomers = new Set<string>();
    for (const o of ordered) {
      if (need <= 0) break;
      if (usedCustomers.has(o.customerId)) continue;
      const customerKey = t.customers.find((c) => customerId(t.slug, c.key) === o.customerId)?.key;
      if (!customerKey) continue;
      const answer = await send(
        {
          type: "tool_use",
          id: `toolu_demo_${o.number}`,
          name: "prepare_refund",
          input: { order_id: o.number, reason: reasons[created[t.slug]! % reasons.length] },
        },
        {
          authorization: `Bearer ${agentKey(t.slug, "web_support")}`,
          "x-end-user-token": await mintEndUserToken(t.slug, "web_support", o.customerId),
          "x-agent-model": "demo-agent",
          "x-agent-prompt-version": "demo-start",
        },
      );
      if (answer.code !== "approval_required") {
        log(`demo: ${t.slug} ${o.number}: prepare_refund answered ${answer.code}; trying another order`);
        continue;
      }
      usedCustomers.add(o.customerId);
      created[t.slug]! += 1;
      need -= 1;
    }
  }
  return created;
}
