// Every role refusal is audited, counted per person, target and minute so a loop cannot flood
// the trail. (The HTTP wiring — staffRoute and requirePermission — is exercised by e2e/admin-*.spec.ts.)
import { describe, expect, it } from "vitest";
import { assertCan, isRoleRefusal } from "@/lib/domain/permissions";
import { db } from "@/lib/server/db/client";
import { recordAccessDenied } from "@/lib/server/auth/record-access-denied";
import { openPgClient } from "@/lib/server/db/pg-client";
import { transaction } from "@/lib/server/db/transaction";
import { inviteStaff } from "@/lib/server/admin/invite-staff";
import { actorFor, staffOf } from "../support/actors";

describe("denied access", () => {
  it("a role refusal from a use case is recognisable as such (so the HTTP layer records it)", async () => {
    const reviewer = await actorFor(staffOf("tienda-es", "reviewer").email);
    const refusal = await inviteStaff(reviewer, { email: "x@tienda-es.test", name: "X", roles: ["ops"] }).catch(
      (e: unknown) => e,
    );
    expect(isRoleRefusal(refusal)).toBe(true);
    expect(() => assertCan(["admin"], "admin:manage")).not.toThrow();
  });

  it("20 refusals in one minute: one audit event, the window counts 20; the next minute writes a new event", async () => {
    const reviewer = await actorFor(staffOf("tienda-es", "reviewer").email);
    const t0 = new Date(Date.UTC(2026, 10, 30, 10, 0, 5));
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        recordAccessDenied(
          reviewer,
          { permission: "admin:manage", path: "POST /api/admin/staff" },
          new Date(t0.getTime() + i * 100),
        ),
      ),
    );
    const events = await db().auditEvent.findMany({
      where: { tenantId: reviewer.tenantId, action: "access:denied", actorId: reviewer.userId },
    });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ outcome: "permission_denied", actorType: "staff" });
    expect(events[0]!.data).toMatchObject({
      permission: "admin:manage",
      path: "POST /api/admin/staff",
      roles: ["reviewer"],
      windowSeconds: 60,
    });
    const window = await db().accessDenialWindow.findFirstOrThrow({ where: { staffUserId: reviewer.userId } });
    expect(window.count).toBe(20);

    // Another target in the same minute is its own event; the next minute too.
    await recordAccessDenied(
      reviewer,
      { permission: "executions:reconcile", path: "POST /api/executions/x/check" },
      t0,
    );
    await recordAccessDenied(
      reviewer,
      { permission: "admin:manage", path: "POST /api/admin/staff" },
      new Date(t0.getTime() + 60_000),
    );
    expect(await db().auditEvent.count({ where: { action: "access:denied", actorId: reviewer.userId } })).toBe(3);
    // A day later, the old windows of this person are cleaned up when a new one opens.
    await recordAccessDenied(reviewer, { permission: "admin:manage" }, new Date(t0.getTime() + 2 * 86_400_000));
    expect(await db().accessDenialWindow.count({ where: { staffUserId: reviewer.userId } })).toBe(1);
  });

  it("a flood of one person's refusals holds one pooled connection, not the pool, and every refusal is counted", async () => {
    const ops = await actorFor(staffOf("tienda-es", "ops").email);
    const input = { permission: "admin:manage", path: "POST /api/admin/policy" };
    const t0 = new Date(Date.UTC(2026, 10, 30, 11, 0, 5));
    await recordAccessDenied(ops, input, t0);
    // Another session holds the window's row (as a slow write of another instance would): a write of the count
    // waits on it, holding its pooled connection.
    const holder = await openPgClient(process.env.DATABASE_URL!);
    const flood: Promise<void>[] = [];
    try {
      await holder.query("BEGIN");
      await holder.query(`SELECT 1 FROM "AccessDenialWindow" WHERE "staffUserId" = $1 FOR UPDATE`, [ops.userId]);
      for (let i = 0; i < 50; i++) flood.push(recordAccessDenied(ops, input, new Date(t0.getTime() + 1_000 + i)));
      await new Promise((r) => setTimeout(r, 300));
      // The pool (DATABASE_POOL_SIZE, 10 here) still serves everyone else: one write waits, not fifty.
      await expect(transaction(async (tx) => tx.staffUser.count(), { maxWait: 1_000 })).resolves.toBeGreaterThan(0);
    } finally {
      await holder.query("COMMIT");
      await holder.end();
    }
    await Promise.all(flood);
    const window = await db().accessDenialWindow.findFirstOrThrow({
      where: { staffUserId: ops.userId, target: `permission:${input.permission} ${input.path}` },
    });
    expect(window.count).toBe(51);
    expect(await db().auditEvent.count({ where: { action: "access:denied", actorId: ops.userId } })).toBe(1);
  });
});
