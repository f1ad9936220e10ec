// The reviewer's tab title count: the queue's own conditions (pending, not expired), own tenant only,
// reviewers only — through the real database and a proposal prepared by the real gateway.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { countPendingProposals } from "@/lib/server/proposals/count-pending-proposals";
import { listPendingProposals } from "@/lib/server/proposals/list-pending-proposals";
import { actorOf } from "./audit-support";
import { preparedForFreshOrder } from "./proposal-support";
import { ES, US } from "./gateway-support";

async function queueLength(actor: Awaited<ReturnType<typeof actorOf>>) {
  let n = 0;
  let cursor: string | undefined;
  do {
    const page = await listPendingProposals(actor, { limit: 100, ...(cursor ? { cursor } : {}) });
    n += page.rows.length;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return n;
}

describe("countPendingProposals", () => {
  it("counts what the queue lists, for the reviewer's own tenant only", async () => {
    const es = await actorOf(ES, "reviewer");
    const us = await actorOf(US, "reviewer");
    const before = { es: await countPendingProposals(es), us: await countPendingProposals(us) };
    expect(before.es.count).toBe(await queueLength(es));

    const { proposal } = await preparedForFreshOrder(1234);
    expect((await countPendingProposals(es)).count).toBe(before.es.count + 1);
    expect(await countPendingProposals(us)).toEqual(before.us);
    expect((await countPendingProposals(es)).count).toBe(await queueLength(es));

    // Expired proposals leave the queue and the count, even before the expiry job marks them.
    await db().proposal.update({ where: { id: proposal.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await countPendingProposals(es)).count).toBe(before.es.count);
  });

  it("is for reviewers: other roles are refused", async () => {
    for (const role of ["auditor", "ops", "admin"] as const) {
      await expect(countPendingProposals(await actorOf(ES, role))).rejects.toMatchObject({ code: "permission_denied" });
    }
  });
});
