// Every role refusal is audited, counted per person, target and minute so a loop cannot flood
// the trail. (The HTTP wiring — staffRoute and requirePermission — is exercised by e2e/admin-*.spec.ts.)
import { describe, expect, it } from "vitest";
import { assertCan, isRoleRefusal } from "@/lib/domain/permissions";
import { db } from "@/lib/server/db/client";
import { recordAccessDenied } from "@/lib/server/auth/record-access-denied";
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
});
