// The bulk-message policy's second-admin rule (docs/admin-api.md "The bulk-message policy"): a change that loosens a
// control — a higher two-reviewer threshold, cap or tolerance, no cap, a wider send window, another time zone — waits
// for a second, independent admin, whose approval applies it unless the policy moved meanwhile; one that tightens or
// keeps every control applies at once. Against the real database, through the real use cases.
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";
import type { QueuedAdminChange } from "@/lib/server/admin/admin-change-store";
import { decideAdminChange } from "@/lib/server/admin/decide-admin-change";
import { grantAdminByOperator } from "@/lib/server/admin/grant-admin-by-operator";
import { listAdminChanges } from "@/lib/server/admin/list-admin-changes";
import { getBulkPolicy, setBulkPolicy } from "@/lib/server/admin/segments";
import { updateTenantSettings } from "@/lib/server/admin/update-tenant-settings";
import { metrics } from "@/lib/server/telemetry/metrics";
import { actorFor, staffOf } from "../support/actors";
import { refusal } from "../support/refusal";

const ES = "tienda-es";
let A: Actor; // tienda-es's admin
let B: Actor; // its auditor, made a second admin by the operator
let U: Actor; // shop-us's admin

const events = () =>
  db().auditEvent.findMany({ where: { action: "admin:bulk_message_policy" }, orderBy: { pos: "asc" } });
const policyOf = async (actor: Actor) => {
  const { updatedAt: _, ...values } = await getBulkPolicy(actor);
  return values;
};

beforeAll(async () => {
  A = await actorFor(staffOf(ES, "admin").email);
  B = await actorFor(staffOf(ES, "auditor").email);
  U = await actorFor(staffOf("shop-us", "admin").email);
  await grantAdminByOperator({ tenantSlug: ES, email: B.email });
  B = await actorFor(B.email);
});

describe("loosening the bulk-message policy", () => {
  it("waits for a second admin: nothing changes until then, the proposer cannot approve it, the other admin's approval applies it", async () => {
    const before = await policyOf(A);
    const queued = (await setBulkPolicy(A, {
      recipientsThreshold: 50, // tightens (100 → 50)…
      dailyRecipientsCap: null, // …but these loosen: the whole change waits
      tolerancePercent: 10,
      timeZone: "Atlantic/Canary",
    })) as QueuedAdminChange;
    expect(queued).toMatchObject({ status: "awaiting_second_admin", change: { kind: "bulk_message_policy" } });
    expect(await policyOf(A)).toEqual(before);
    expect(await events()).toHaveLength(0);

    // What the second admin reads: every control the change moves, before → after.
    expect((await listAdminChanges(B)).pending.find((c) => c.id === queued.change.id)).toMatchObject({
      kind: "bulk_message_policy",
      what: ["loosen_bulk_message_policy"],
      target: {
        name: "bulk-message policy",
        email:
          "recipientsThreshold 100 → 50; dailyRecipientsCap 5000 → none; tolerancePercent 0 → 10; timeZone Europe/Madrid → Atlantic/Canary",
      },
      approvalRefusal: null,
    });
    // Another tenant's admin neither sees nor decides it.
    expect((await listAdminChanges(U)).pending.some((c) => c.id === queued.change.id)).toBe(false);
    expect(await refusal(decideAdminChange(U, queued.change.id, "approve"))).toMatchObject({ code: "not_found" });
    expect(await refusal(decideAdminChange(A, queued.change.id, "approve"))).toMatchObject({
      code: "permission_denied",
      reason: "own_change",
    });
    expect(await policyOf(A)).toEqual(before);

    expect(await decideAdminChange(B, queued.change.id, "approve")).toMatchObject({ status: "approved" });
    expect(await policyOf(A)).toEqual({
      recipientsThreshold: 50,
      dailyRecipientsCap: null,
      tolerancePercent: 10,
      windowStartHour: 9,
      windowEndHour: 20,
      timeZone: "Atlantic/Canary",
      ownTimeZone: true,
    });
    const [applied] = await events();
    expect(applied).toMatchObject({
      actorId: B.userId,
      data: expect.objectContaining({
        target: expect.objectContaining({ change: queued.change.id }),
        before: expect.objectContaining({ dailyRecipientsCap: 5_000, timeZone: "Europe/Madrid" }),
        after: expect.objectContaining({
          dailyRecipientsCap: null,
          loosens: ["dailyRecipientsCap", "tolerancePercent", "timeZone"],
        }),
      }),
    });
    // Another tenant's policy is its own.
    expect(await policyOf(U)).toMatchObject({ recipientsThreshold: 100, dailyRecipientsCap: 5_000 });
  });

  it("a wider window waits too; tightening applies at once, by one admin", async () => {
    const earlier = (await setBulkPolicy(A, { windowStartHour: 8 })) as QueuedAdminChange;
    expect(earlier.status).toBe("awaiting_second_admin");
    const later = (await setBulkPolicy(A, { windowEndHour: 21 })) as QueuedAdminChange;
    expect(later.status).toBe("awaiting_second_admin");
    expect(await setBulkPolicy(A, { tolerancePercent: 5, dailyRecipientsCap: 2_000, windowEndHour: 19 })).toMatchObject(
      { status: "applied", tolerancePercent: 5, dailyRecipientsCap: 2_000, windowEndHour: 19 },
    );
    // Both waiting changes were proposed against the policy before that tightening: stale, refused, nothing applied.
    for (const change of [earlier, later])
      expect(await refusal(decideAdminChange(B, change.change.id, "approve"))).toMatchObject({
        code: "permission_denied",
        reason: "stale",
      });
    expect(await policyOf(A)).toMatchObject({ windowStartHour: 9, windowEndHour: 19, tolerancePercent: 5 });
  });

  it("a rejected loosening changes nothing", async () => {
    const before = await policyOf(A);
    const queued = (await setBulkPolicy(A, { recipientsThreshold: 10_000 })) as QueuedAdminChange;
    expect(await decideAdminChange(B, queued.change.id, "reject")).toMatchObject({ status: "rejected" });
    expect(await policyOf(A)).toEqual(before);
    expect(await refusal(decideAdminChange(B, queued.change.id, "approve"))).toMatchObject({
      code: "permission_denied",
      reason: "not_pending",
    });
  });

  it("changes at the same time, each of another control, apply one after another: none is lost", async () => {
    const changes = [
      { recipientsThreshold: 40 },
      { dailyRecipientsCap: 1_500 },
      { tolerancePercent: 4 },
      { windowStartHour: 10 },
      { windowEndHour: 18 },
    ];
    const answers = await Promise.all(changes.map((c) => setBulkPolicy(A, c)));
    expect(answers.map((a) => a.status)).toEqual(changes.map(() => "applied"));
    expect(await policyOf(A)).toMatchObject(Object.assign({}, ...changes));
  });
});

describe("the tenant's time zone", () => {
  const conflicts = async () =>
    (await metrics().transactionConflicts.get()).values.reduce((sum, v) => sum + v.value, 0);
  const reset = async (zone: string) => {
    await db().bulkMessagePolicy.deleteMany({ where: { tenantId: U.tenantId } });
    await db().tenant.update({ where: { id: U.tenantId }, data: { timeZone: zone } });
  };

  it("a new tenant time zone does not move the send window: the policy keeps the zone it had, audited; moving it still takes a second admin", async () => {
    const before = await policyOf(U);
    expect(before.ownTimeZone).toBe(false); // the window follows the tenant's zone
    const zone = before.timeZone;
    // Settings that keep the zone leave the policy following it.
    await updateTenantSettings(U, { name: "Shop US", timeZone: zone });
    expect(await policyOf(U)).toEqual(before);

    await updateTenantSettings(U, { timeZone: "Pacific/Honolulu" });
    expect((await db().tenant.findUniqueOrThrow({ where: { id: U.tenantId } })).timeZone).toBe("Pacific/Honolulu");
    expect(await policyOf(U)).toEqual({ ...before, ownTimeZone: true });
    const kept = await db().auditEvent.findMany({
      where: { tenantId: U.tenantId, action: "admin:bulk_message_policy" },
    });
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({
      actorId: U.userId,
      data: expect.objectContaining({
        target: { kind: "bulk_message_policy", keptOnTenantZoneChange: true },
        before: expect.objectContaining({ timeZone: zone }),
        after: expect.objectContaining({ timeZone: zone, loosens: [] }),
      }),
    });
    // A further zone change finds the policy's own zone and writes nothing.
    await updateTenantSettings(U, { timeZone: "Europe/Berlin" });
    expect(await policyOf(U)).toEqual({ ...before, ownTimeZone: true });
    expect(await db().auditEvent.count({ where: { tenantId: U.tenantId, action: "admin:bulk_message_policy" } })).toBe(
      1,
    );
    // Moving the window to the tenant's new zone is a loosening: shop-us has one admin, so it is refused.
    expect(await refusal(setBulkPolicy(U, { timeZone: "Europe/Berlin" }))).toMatchObject({
      code: "permission_denied",
      reason: "no_second_admin",
    });
    expect((await policyOf(U)).timeZone).toBe(zone);
  });

  it("a tenant zone change racing a policy change neither deadlocks nor loses the kept zone", async () => {
    const zone = "America/New_York";
    const seen = await conflicts();
    for (let round = 0; round < 15; round++) {
      await reset(zone);
      await Promise.all([
        updateTenantSettings(U, { timeZone: "Asia/Tokyo" }),
        setBulkPolicy(U, { recipientsThreshold: 90 - round }), // tightens: applies at once
      ]);
      expect(await policyOf(U)).toMatchObject({ timeZone: zone, ownTimeZone: true, recipientsThreshold: 90 - round });
    }
    expect((await conflicts()) - seen).toBe(0);
  });
});
