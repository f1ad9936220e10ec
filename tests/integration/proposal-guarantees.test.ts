// Guarantees of the proposal life that must hold under concurrency and abuse
// and the agent-visible lifecycle after an expiry or invalidation. Real gateway handler,
// real use cases, real database; each test names the guard it protects.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { sqlPool, withPgTransaction } from "@/lib/server/db/pg";
import { sql } from "@/lib/server/db/sql";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import { rejectProposal } from "@/lib/server/proposals/reject-proposal";
import { listPendingProposals } from "@/lib/server/proposals/list-pending-proposals";
import { getRefundDetail } from "@/lib/server/proposals/get-proposal";
import { expireProposals } from "@/lib/server/proposals/expire-proposals";
import { verifyCredentials, LOCKOUT_THRESHOLD } from "@/lib/server/auth/verify-credentials";
import { actorFor, staffOf } from "../support/actors";
import {
  ES,
  US,
  ana,
  john,
  anthropicCall,
  headersFor,
  send,
  tokenFor,
  webKey,
  freshTrace,
  type Answer,
} from "./gateway-support";
import { createPaidOrder } from "../../scripts/lib/fixtures";
import { asRefund } from "@/lib/domain/refund-row";

/** A fresh paid card order of a demo customer. */
async function newOrder(
  tenant: string,
  customer: string,
  amountMinor: number,
): Promise<{ id: string; number: string; paymentId: string }> {
  const t = await db().tenant.findUniqueOrThrow({ where: { slug: tenant } });
  const o = await createPaidOrder(db(), t, { customerId: customer, amountMinor, prefix: "G" });
  return { id: o.orderId, number: o.number, paymentId: o.paymentId };
}

const customerOf = (tenant: string) => (tenant === US ? john : ana);

async function call(tenant: string, tool: string, input: unknown): Promise<Answer["content"]> {
  const a = await send(
    anthropicCall(tool, input),
    headersFor({ key: webKey(tenant), token: await tokenFor(tenant, customerOf(tenant)), trace: freshTrace() }),
  );
  return a.content;
}

async function prepareOrder(tenant: string, orderNumber: string) {
  const answer = await call(tenant, "prepare_refund", { order_id: orderNumber, reason: "damaged_item" });
  expect(answer.code).toBe("approval_required");
  return db().proposal.findUniqueOrThrow({ where: { id: (answer.result as { proposal_id: string }).proposal_id } });
}

async function prepare(tenant: string, amountMinor: number) {
  return prepareOrder(tenant, (await newOrder(tenant, customerOf(tenant), amountMinor)).number);
}

const setTenant = (slug: string, data: Parameters<ReturnType<typeof db>["tenant"]["update"]>[0]["data"]) =>
  db().tenant.update({ where: { slug }, data });

/** Sum approved today by a reviewer (this file's database: every approval is from this run, none backdated unless a test does it). */
async function approvedSum(userId: string): Promise<number> {
  const rows = await db().approval.findMany({
    where: { approverId: userId },
    include: { proposal: { select: { amountMinor: true } } },
  });
  return rows.reduce((s, r) => s + asRefund(r.proposal).amountMinor, 0);
}

/** The instant the current calendar day began in a time zone (Intl, independent of the server's SQL). */
function midnightIn(timeZone: string, now = new Date()): Date {
  const day = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(
    now,
  );
  const guess = new Date(`${day}T00:00:00.000Z`);
  const offset = (d: Date) => {
    const name = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" })
      .formatToParts(d)
      .find((p) => p.type === "timeZoneName")!.value;
    const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
    return m ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000 : 0;
  };
  return new Date(guess.getTime() - offset(guess));
}

const reasonOf = (e: unknown) => (e as { code?: string; details?: { reason?: string } }) ?? {};

describe("daily approval cap", () => {
  it("two concurrent approvals by one reviewer whose sum exceeds the cap: exactly one passes, in every round", async () => {
    const reviewer = await actorFor(staffOf(US, "reviewer", 0).email);
    for (let round = 0; round < 6; round++) {
      const [a, b] = [await prepare(US, 600), await prepare(US, 600)];
      await setTenant(US, { reviewerDailyApprovalLimitMinor: (await approvedSum(reviewer.userId)) + 1_000 });
      const results = await Promise.allSettled([
        approveProposal(reviewer, { proposalId: a.id, hash: a.hash }),
        approveProposal(reviewer, { proposalId: b.id, hash: b.hash }),
      ]);
      expect(
        results.filter((r) => r.status === "fulfilled"),
        `round ${round}`,
      ).toHaveLength(1);
      const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
      expect(reasonOf(refused.reason)).toMatchObject({ code: "limit_exceeded", details: { reason: "daily_total" } });
    }
    await setTenant(US, { reviewerDailyApprovalLimitMinor: null });
  });

  it("exactly at the cap passes; one minor unit more does not", async () => {
    const reviewer = await actorFor(staffOf(ES, "reviewer", 0).email);
    const p = await prepare(ES, 700);
    await setTenant(ES, { reviewerDailyApprovalLimitMinor: (await approvedSum(reviewer.userId)) + 700 });
    await expect(approveProposal(reviewer, { proposalId: p.id, hash: p.hash })).resolves.toMatchObject({
      status: "approved",
    });
    const q = await prepare(ES, 1);
    await expect(approveProposal(reviewer, { proposalId: q.id, hash: q.hash })).rejects.toMatchObject({
      code: "limit_exceeded",
    });
    await setTenant(ES, { reviewerDailyApprovalLimitMinor: null });
  });

  it("'today' is the tenant's day: Madrid's day starts before UTC's, New York's after", async () => {
    // An approval just after Madrid's midnight (still yesterday in UTC) counts today in Madrid.
    const madrid = await actorFor(staffOf(ES, "reviewer", 1).email);
    const earlier = await prepare(ES, 900);
    await db().approval.create({
      data: {
        tenantId: earlier.tenantId,
        proposalId: earlier.id,
        approverId: madrid.userId,
        proposalHash: earlier.hash,
        authMethod: "password",
        authTime: new Date(),
        traceId: "backdated",
        createdAt: new Date(midnightIn("Europe/Madrid").getTime() + 60_000),
      },
    });
    await setTenant(ES, { reviewerDailyApprovalLimitMinor: 1_000 });
    const p = await prepare(ES, 900);
    await expect(approveProposal(madrid, { proposalId: p.id, hash: p.hash })).rejects.toMatchObject({
      code: "limit_exceeded",
      details: { usedMinor: 900 },
    });
    await setTenant(ES, { reviewerDailyApprovalLimitMinor: null });

    // An approval just before New York's midnight (already today in UTC) is yesterday in New York.
    const ny = await actorFor(staffOf(US, "reviewer", 1).email);
    const before = await prepare(US, 900);
    await db().approval.create({
      data: {
        tenantId: before.tenantId,
        proposalId: before.id,
        approverId: ny.userId,
        proposalHash: before.hash,
        authMethod: "password",
        authTime: new Date(),
        traceId: "backdated",
        createdAt: new Date(midnightIn("America/New_York").getTime() - 60_000),
      },
    });
    await setTenant(US, { reviewerDailyApprovalLimitMinor: 1_000 });
    const q = await prepare(US, 900);
    await expect(approveProposal(ny, { proposalId: q.id, hash: q.hash })).resolves.toMatchObject({
      status: "approved",
    });
    await setTenant(US, { reviewerDailyApprovalLimitMinor: null });
  });
});

describe("step-up guessing", () => {
  it("wrong step-up passwords count toward the account lockout: after them the right one is refused and nothing is approved", async () => {
    const who = staffOf(US, "reviewer", 1);
    const stale = await actorFor(who.email, { authAgoSeconds: 60 * 60 });
    const p = await prepare(US, 1_500);
    for (let i = 0; i < LOCKOUT_THRESHOLD; i++) {
      await expect(
        approveProposal(stale, {
          proposalId: p.id,
          hash: p.hash,
          stepUp: { method: "password", password: `wrong-${i}` },
        }),
      ).rejects.toMatchObject({
        details: { reason: "step_up_failed" },
      });
    }
    await expect(
      approveProposal(stale, {
        proposalId: p.id,
        hash: p.hash,
        stepUp: { method: "password", password: who.password },
      }),
    ).rejects.toMatchObject({
      code: "limit_exceeded",
      details: { reason: "account_locked" },
    });
    expect(await db().approval.count({ where: { proposalId: p.id } })).toBe(0);
    expect((await db().proposal.findUniqueOrThrow({ where: { id: p.id } })).status).toBe("pending_approval");
    // The same lockout as sign-in.
    expect(await verifyCredentials(who.email, who.password)).toMatchObject({ ok: false, reason: "locked" });
    const refusals = await db().auditEvent.findMany({ where: { proposalId: p.id, action: "proposal:approve" } });
    expect(refusals).toHaveLength(LOCKOUT_THRESHOLD + 1);
    await db().staffUser.update({ where: { email: who.email }, data: { failedLoginCount: 0, lockedUntil: null } });
  });

  it("the password is checked before the proposal is locked: a wrong guess is answered while another transaction holds the row", async () => {
    const who = staffOf(ES, "reviewer", 1);
    const stale = await actorFor(who.email, { authAgoSeconds: 60 * 60 });
    const p = await prepare(ES, 1_600);
    let release!: () => void;
    let taken!: () => void;
    const lockTaken = new Promise<void>((r) => (taken = r));
    const held = new Promise<void>((r) => (release = r));
    const holder = withPgTransaction(
      async (tx) => {
        await sql`SELECT id FROM "Proposal" WHERE id = ${p.id}::uuid FOR UPDATE`.execute(tx);
        taken();
        await held;
      },
      { timeout: 30_000, maxWait: 10_000 },
    );
    await lockTaken;
    const attempt = approveProposal(stale, {
      proposalId: p.id,
      hash: p.hash,
      stepUp: { method: "password", password: "not-it" },
    }).then(
      () => "approved",
      (e: unknown) => reasonOf(e).details?.reason ?? "other",
    );
    const first = await Promise.race([
      attempt,
      new Promise<string>((r) => setTimeout(() => r("waited for the proposal lock"), 8_000)),
    ]);
    release();
    await holder;
    expect(first).toBe("step_up_failed");
    await db().staffUser.update({ where: { email: who.email }, data: { failedLoginCount: 0, lockedUntil: null } });
  });
});

describe("re-asking after a rejection", () => {
  it("during the tenant's cool-down a re-prepare answers rejected with the reason; afterwards the new proposal carries 'previously rejected'", async () => {
    const order = await newOrder(ES, ana, 2_222);
    const first = await prepareOrder(ES, order.number);
    const reviewer = await actorFor(staffOf(ES, "reviewer", 0).email);
    await rejectProposal(reviewer, {
      proposalId: first.id,
      hash: first.hash,
      reason: "Customer already got a replacement",
    });

    const again = await call(ES, "prepare_refund", { order_id: order.number, reason: "damaged_item" });
    expect(again.code).toBe("rejected");
    expect(again.error).toMatchObject({
      order_id: order.number,
      reason: "Customer already got a replacement",
      previous_proposal_id: first.id,
    });
    expect(Date.parse(String(again.error?.retry_after))).toBeGreaterThan(Date.now() + 23 * 3600_000);
    expect(await db().proposal.count({ where: { orderId: order.id } })).toBe(1);

    await setTenant(ES, { rejectionCooldownMinutes: 0 });
    const second = await prepareOrder(ES, order.number);
    await setTenant(ES, { rejectionCooldownMinutes: 1440 });
    const expected = {
      proposalId: first.id,
      reason: "Customer already got a replacement",
      by: staffOf(ES, "reviewer", 0).name,
    };
    const row = (await listPendingProposals(reviewer, { limit: 100 })).rows.find((r) => r.id === second.id);
    expect(row?.previouslyRejected).toMatchObject(expected);
    const detail = await getRefundDetail(reviewer, second.id);
    expect(detail.previouslyRejected).toMatchObject(expected);
    expect(Date.parse(detail.previouslyRejected!.at!)).toBeGreaterThan(Date.now() - 60_000);
    // A proposal with no rejection before it says so.
    expect((await getRefundDetail(reviewer, first.id)).previouslyRejected).toBeNull();
  });

  it("'possible duplicate' only for the same customer with the same order or amount, and the detail names what it duplicates", async () => {
    const reviewer = await actorFor(staffOf(ES, "reviewer", 0).email);
    const a = await prepare(ES, 31_337);
    const b = await prepare(ES, 31_337);
    const c = await prepare(ES, 27_182);
    const rows = (await listPendingProposals(reviewer, { limit: 100 })).rows;
    const flag = (id: string) => rows.find((r) => r.id === id)?.flags.duplicate;
    expect([flag(a.id), flag(b.id), flag(c.id)]).toEqual([true, true, false]);
    expect((await getRefundDetail(reviewer, b.id)).possibleDuplicateOf).toMatchObject({
      kind: "proposal",
      id: a.id,
      amountMinor: 31_337,
    });
    expect((await getRefundDetail(reviewer, c.id)).possibleDuplicateOf).toBeNull();
    expect(
      (await listPendingProposals(reviewer, { limit: 100, flag: "duplicate" })).rows.map((r) => r.id),
    ).not.toContain(c.id);

    // An earlier refund of the same amount to the same customer, on another order.
    const paid = await newOrder(ES, ana, 12_121);
    const refund = await db().refund.create({
      data: {
        tenantId: c.tenantId,
        orderId: paid.id,
        paymentId: paid.paymentId,
        amountMinor: 12_121,
        currency: "EUR",
        status: "succeeded",
        providerRefundId: `re_dup_${paid.number}`,
        reason: "test",
      },
    });
    const d = await prepare(ES, 12_121);
    expect((await getRefundDetail(reviewer, d.id)).possibleDuplicateOf).toMatchObject({
      kind: "refund",
      id: refund.id,
      orderNumber: paid.number,
    });
  });
});

describe("hash and four eyes at approval", () => {
  it("an amount LOWERED in the database after preparing no longer matches the stored hash: invalidated, not approved", async () => {
    const p = await prepare(ES, 5_500);
    await sql`UPDATE "Proposal" SET "amountMinor" = 5000 WHERE id = ${p.id}::uuid`.execute(sqlPool());
    const reviewer = await actorFor(staffOf(ES, "reviewer", 0).email);
    await expect(approveProposal(reviewer, { proposalId: p.id, hash: p.hash })).rejects.toMatchObject({
      code: "invalidated",
      details: { reason: "stored_hash_mismatch" },
    });
    expect(await db().proposal.findUniqueOrThrow({ where: { id: p.id } })).toMatchObject({
      status: "invalidated",
      invalidationReason: "stored_hash_mismatch",
    });
    expect(await db().approval.count({ where: { proposalId: p.id } })).toBe(0);
  });

  it("four eyes from exactly the threshold: at it two approvals, one minor unit below one", async () => {
    const t = await db().tenant.findUniqueOrThrow({ where: { slug: ES } });
    const threshold = t.dualApprovalThresholdMinor!;
    const at = await prepare(ES, threshold);
    const below = await prepare(ES, threshold - 1);
    expect([at.requiredApprovals, below.requiredApprovals]).toEqual([2, 1]);
    const r0 = await actorFor(staffOf(ES, "reviewer", 0).email);
    await expect(approveProposal(r0, { proposalId: at.id, hash: at.hash })).resolves.toMatchObject({
      status: "pending_approval",
      approvals: 1,
      requiredApprovals: 2,
    });
    await expect(approveProposal(r0, { proposalId: below.id, hash: below.hash })).resolves.toMatchObject({
      status: "approved",
      requiredApprovals: 1,
    });
  });
});

describe("lifecycle after an expiry or invalidation", () => {
  /** A proposal that is already past its expiry (the tenant's expiry set to 0 while it is prepared). */
  async function pastExpiry() {
    const order = await newOrder(ES, ana, 3_300);
    await setTenant(ES, { approvalExpiryMinutes: 0 });
    const p = await prepareOrder(ES, order.number);
    await setTenant(ES, { approvalExpiryMinutes: 30 });
    return { order, p };
  }

  it("expired by a status check: the re-prepare records what it supersedes", async () => {
    const { order, p } = await pastExpiry();
    expect((await call(ES, "get_refund_status", { proposal_id: p.id })).code).toBe("expired");
    const next = await prepareOrder(ES, order.number);
    expect(next.supersedesId).toBe(p.id);
  });

  it("expired by the sweep: the re-prepare records what it supersedes", async () => {
    const { order, p } = await pastExpiry();
    await expireProposals();
    expect((await db().proposal.findUniqueOrThrow({ where: { id: p.id } })).status).toBe("expired");
    const next = await prepareOrder(ES, order.number);
    expect(next.supersedesId).toBe(p.id);
  });

  it("expired by an approval attempt: the re-prepare records what it supersedes", async () => {
    const { order, p } = await pastExpiry();
    await expect(
      approveProposal(await actorFor(staffOf(ES, "reviewer", 0).email), { proposalId: p.id, hash: p.hash }),
    ).rejects.toMatchObject({
      code: "expired",
    });
    const next = await prepareOrder(ES, order.number);
    expect(next.supersedesId).toBe(p.id);
  });

  it("invalidated by an approval attempt (the order changed): the re-prepare records what it supersedes, from current data", async () => {
    const order = await newOrder(ES, ana, 3_400);
    const p = await prepareOrder(ES, order.number);
    await db().payment.update({ where: { id: order.paymentId }, data: { holderName: "New Holder" } });
    await expect(
      approveProposal(await actorFor(staffOf(ES, "reviewer", 0).email), { proposalId: p.id, hash: p.hash }),
    ).rejects.toMatchObject({
      code: "invalidated",
      details: { reason: "recipient_changed" },
    });
    const next = await prepareOrder(ES, order.number);
    expect(next).toMatchObject({ supersedesId: p.id, recipientHolder: "New Holder", amountMinor: 3_400 });
  });

  it("lookup_order never lists a proposal past its expiry as open nor holds back its amount, swept or not", async () => {
    const { order, p } = await pastExpiry();
    const looked = await call(ES, "lookup_order", { order_id: order.number });
    expect(looked.code).toBe("ok");
    const result = looked.result as { refundable: { minor: number }; open_refund_proposals: { proposal_id: string }[] };
    expect(result.open_refund_proposals.map((o) => o.proposal_id)).not.toContain(p.id);
    expect(result.refundable.minor).toBe(3_300);
  });
});
