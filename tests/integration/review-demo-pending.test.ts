// The demo's proposals waiting at start: made through the real gateway as the demo agent (audited like
// any agent's), topped up to three per tenant, none added when three already wait, added again once the
// earlier ones expired.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { proposalStatus } from "@/lib/domain/proposal-state";
import { PENDING_PER_TENANT, topUpDemoProposals } from "../../scripts/lib/demo-pending";
import { ES, US, ana, john, send } from "./gateway-support";

const sendContent = async (body: unknown, headers: Record<string, string>) => (await send(body, headers)).content;
const waiting = async (slug: string) =>
  db().proposal.findMany({
    where: { tenant: { slug }, status: proposalStatus.pendingApproval, expiresAt: { gt: new Date() } },
    include: { order: true },
  });

describe("topUpDemoProposals", () => {
  it("leaves three proposals waiting per demo tenant, prepared by the demo agent, and tops up only what is missing", async () => {
    expect(await topUpDemoProposals(db(), sendContent)).toEqual({ [ES]: PENDING_PER_TENANT, [US]: PENDING_PER_TENANT });
    for (const slug of [ES, US]) {
      const rows = await waiting(slug);
      expect(rows).toHaveLength(PENDING_PER_TENANT);
      // One customer each (no "possible duplicate" wall), each asked by the web_support agent key.
      expect(new Set(rows.map((r) => r.customerId)).size).toBe(PENDING_PER_TENANT);
      expect(rows.every((r) => r.requestedByAgentKeyId !== null)).toBe(true);
      // Never the first demo customer's orders: `npm run agent:demo` and the tests act for that one.
      expect(rows.map((r) => r.customerId)).not.toContain(slug === ES ? ana : john);
      // One of them needs two reviewers (the four-eyes flow is there to try).
      expect(rows.some((r) => r.requiredApprovals === 2)).toBe(true);
      for (const r of rows) {
        const prepared = await db().auditEvent.findFirst({
          where: { proposalId: r.id, action: "tool:prepare_refund", outcome: "approval_required" },
        });
        expect(prepared?.actorType).toBe("agent");
      }
    }

    expect(await topUpDemoProposals(db(), sendContent)).toEqual({ [ES]: 0, [US]: 0 });

    // A later start, after they expired: three new ones, on other orders.
    const before = await waiting(ES);
    await db().proposal.updateMany({
      where: { id: { in: before.map((r) => r.id) } },
      data: { expiresAt: new Date(Date.now() - 1_000) },
    });
    expect((await topUpDemoProposals(db(), sendContent))[ES]).toBe(PENDING_PER_TENANT);
    expect(await waiting(ES)).toHaveLength(PENDING_PER_TENANT);
  });
});
