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
