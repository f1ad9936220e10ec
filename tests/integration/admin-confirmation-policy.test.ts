// Who confirms, as the tenant sets it (docs/admin-api.md "Customer confirmation"): the kinds whose proposals also need
// the customer's confirmation. Admins only, with step-up; unknown kinds refused; adding a kind applies at once (and the
// next prepare decides `both` for it); dropping one loosens the policy and waits for a second, independent admin, whose
// approval applies it unless the list moved meanwhile. Against the real database, through the real use cases.
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";
import { sqlOf } from "@/lib/server/db/sql";
import { transaction } from "@/lib/server/db/transaction";
import { getConfirmationPolicy, setConfirmationPolicy } from "@/lib/server/admin/confirmation-policy";
import { decideAdminChange } from "@/lib/server/admin/decide-admin-change";
import { listAdminChanges } from "@/lib/server/admin/list-admin-changes";
import { grantAdminByOperator } from "@/lib/server/admin/grant-admin-by-operator";
import type { QueuedAdminChange } from "@/lib/server/admin/admin-change-store";
import { decideConfirmation } from "@/lib/server/confirmations/decide-confirmation";
import { actorFor, staffOf } from "../support/actors";
import { refusal } from "../support/refusal";

const ES = "tienda-es";
let A: Actor; // tienda-es's admin
let B: Actor; // its auditor, made a second admin by the operator below
let R: Actor; // a reviewer
let U: Actor; // shop-us's admin

const kindsOf = async (slug: string) =>
  (await db().tenant.findFirstOrThrow({ where: { slug } })).customerConfirmationKinds;
const whoConfirms = (tenantId: string, kind: string) =>
  transaction((tx) => decideConfirmation(sqlOf(tx), tenantId, kind, {}));
const events = () =>
  db().auditEvent.findMany({ where: { action: "admin:set_confirmation_policy" }, orderBy: { pos: "asc" } });

beforeAll(async () => {
  A = await actorFor(staffOf(ES, "admin").email);
  B = await actorFor(staffOf(ES, "auditor").email);
  R = await actorFor(staffOf(ES, "reviewer").email);
  U = await actorFor(staffOf("shop-us", "admin").email);
});

describe("who confirms, set by an admin", () => {
  it("is for admins only, and names every kind with its own floor", async () => {
    expect(await refusal(getConfirmationPolicy(R))).toMatchObject({ code: "permission_denied" });
    expect(await refusal(setConfirmationPolicy(R, { kinds: ["refund"] }))).toMatchObject({
      code: "permission_denied",
    });
    const view = await getConfirmationPolicy(A);
    expect(view.kinds).toEqual([]);
    expect(view.available).toEqual(
      expect.arrayContaining([
        { kind: "refund", floor: "reviewers" },
        { kind: "change_shipping_address", floor: "customer" },
      ]),
    );
    expect(await kindsOf(ES)).toEqual([]);
  });

  it("refuses an unknown kind, a malformed list and a stale session, and changes nothing", async () => {
    expect(await refusal(setConfirmationPolicy(A, { kinds: ["refund", "wire_transfer"] }))).toMatchObject({
      code: "invalid_arguments",
      problem: "unknown_kind",
    });
    expect(await refusal(setConfirmationPolicy(A, { kinds: "refund" }))).toMatchObject({ code: "invalid_arguments" });
    expect(await refusal(setConfirmationPolicy(A, { kinds: ["Refund!"] }))).toMatchObject({
      code: "invalid_arguments",
    });
    expect(await refusal(setConfirmationPolicy(A, { kinds: [], extra: 1 }))).toMatchObject({
      code: "invalid_arguments",
    });
    const stale = await actorFor(A.email, { authAgoSeconds: 3600 });
    expect(await refusal(setConfirmationPolicy(stale, { kinds: ["refund"] }))).toMatchObject({
      code: "permission_denied",
      reason: "step_up_required",
    });
    expect(await kindsOf(ES)).toEqual([]);
    expect(await events()).toHaveLength(0);
  });

  it("adding a kind applies at once, audited, for this tenant only; the next prepare asks the customer too", async () => {
    expect(await whoConfirms(A.tenantId, "refund")).toBe("reviewers");
    expect(await setConfirmationPolicy(A, { kinds: ["refund", "refund", "cancel_order"] })).toEqual({
      status: "applied",
      kinds: ["cancel_order", "refund"],
    });
    expect(await kindsOf(ES)).toEqual(["cancel_order", "refund"]);
    expect(await kindsOf("shop-us")).toEqual([]);
    expect(await whoConfirms(A.tenantId, "refund")).toBe("both");
    expect(await whoConfirms(U.tenantId, "refund")).toBe("reviewers");
    expect((await events()).at(-1)).toMatchObject({
      actorId: A.userId,
      tenantId: A.tenantId,
      data: expect.objectContaining({ before: { kinds: [] }, after: { kinds: ["cancel_order", "refund"] } }),
    });
  });

  it("one admin alone cannot drop a kind: refused, nothing changes", async () => {
    expect(await refusal(setConfirmationPolicy(A, { kinds: ["refund"] }))).toMatchObject({
      code: "permission_denied",
      reason: "no_second_admin",
    });
    expect(await kindsOf(ES)).toEqual(["cancel_order", "refund"]);
    expect(await db().adminChange.count({ where: { kind: "confirmation_policy" } })).toBe(0);
  });

  it("with a second admin: dropping waits, the proposer cannot approve it, the other admin's approval applies it", async () => {
    await grantAdminByOperator({ tenantSlug: ES, email: B.email });
    B = await actorFor(B.email);
    const queued = (await setConfirmationPolicy(A, { kinds: ["refund"] })) as QueuedAdminChange;
    expect(queued).toMatchObject({ status: "awaiting_second_admin", change: { kind: "confirmation_policy" } });
    expect(await kindsOf(ES)).toEqual(["cancel_order", "refund"]);
    expect((await listAdminChanges(B)).pending.find((c) => c.id === queued.change.id)).toMatchObject({
      what: ["lower_customer_confirmation"],
      target: { name: "customer confirmation", email: "cancel_order, refund → refund" },
      approvalRefusal: null,
    });
    expect(await refusal(decideAdminChange(A, queued.change.id, "approve"))).toMatchObject({
      code: "permission_denied",
      reason: "own_change",
    });
    expect(await kindsOf(ES)).toEqual(["cancel_order", "refund"]);
    expect(await decideAdminChange(B, queued.change.id, "approve")).toMatchObject({ status: "approved" });
    expect(await kindsOf(ES)).toEqual(["refund"]);
    expect(await whoConfirms(A.tenantId, "cancel_order")).toBe("reviewers");
    expect((await events()).at(-1)).toMatchObject({
      actorId: B.userId,
      data: expect.objectContaining({
        target: expect.objectContaining({ change: queued.change.id }),
        before: { kinds: ["cancel_order", "refund"] },
        after: { kinds: ["refund"] },
      }),
    });
  });

  it("a drop approved after the list moved is stale: refused, nothing applied", async () => {
    const queued = (await setConfirmationPolicy(A, { kinds: [] })) as QueuedAdminChange;
    expect(await setConfirmationPolicy(A, { kinds: ["refund", "update_customer_contact"] })).toMatchObject({
      status: "applied",
    });
    expect(await refusal(decideAdminChange(B, queued.change.id, "approve"))).toMatchObject({
      code: "permission_denied",
      reason: "stale",
    });
    expect(await kindsOf(ES)).toEqual(["refund", "update_customer_contact"]);
  });
});
