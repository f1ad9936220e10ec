// The order-cancellation kind (docs/action-kinds.md, the worked example) beyond the conformance suite: what
// prepare_order_cancellation derives (the order, its items and total, the refund that goes with it), what the
// reviewer approves (all of it hashed), and its two keyed steps under the one approval — the shop cancels (the
// action endpoint, the real sandbox shop) and then the refund is paid (the real payment sandbox) — each exactly once,
// the second never without the first, a second step in doubt reconciled; and the follow-up refund's authority: only
// the refund its parent's reviewers approved, only after the parent's step succeeded.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ShopControl } from "@/shop-sandbox/control-client";
import type { SandboxControl } from "@/provider-sandbox/control-client";
import { executionStatus as E } from "@/lib/domain/execution-state";
import { computeProposalHash, hashInputOf, storedProposalIntact, KIND_HASH_VERSION } from "@/lib/domain/proposal-hash";
import { proposalStatus as P } from "@/lib/domain/proposal-state";
import { asRefund } from "@/lib/domain/refund-row";
import { authenticateAgentKey, type AgentCaller } from "@/lib/server/agent/authenticate-agent-key";
import { executeToolCall } from "@/lib/server/agent/execute-tool-call";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";
import { sqlOf } from "@/lib/server/db/sql";
import { transaction } from "@/lib/server/db/transaction";
import { buildProposal } from "@/lib/server/proposals/build-proposal";
import { executeApprovedProposal, reconcileAnyExecution } from "@/lib/server/executions/run-execution";
import { getExecutionDetail } from "@/lib/server/executions/get-execution-detail";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import { getKindProposal } from "@/lib/server/proposals/get-kind-proposal";
import { getProposal } from "@/lib/server/proposals/get-proposal";
import { buildEvidencePack } from "@/lib/server/audit/build-evidence-pack";
import { auditPublicKey } from "@/lib/server/audit/signing-key";
import { integratePending } from "@/lib/server/audit/sequencer";
import { serializeEvidencePack, verifyEvidencePack, type EvidencePack } from "@/lib/domain/evidence-pack";
import { proposalWaiterCount, stopProposalChanges } from "@/lib/server/realtime/proposal-changes";
import { actorFor, staffOf } from "../support/actors";
import { CANCELLATION_TOOL, allowKindTool, startShopBehindEndpoint } from "../support/address-change-shop";
import { refusal } from "../support/refusal";
import { runJobsOnce } from "../support/run-jobs-once";
import { startSandboxProvider, type SandboxProvider } from "../support/sandbox-provider";
import { ES, US, ana, john, tokenFor, webKey } from "./gateway-support";
import { freshCardOrder } from "./proposal-support";

let stopShop: (() => Promise<void>) | undefined;
let shop: ShopControl;
let sandbox: SandboxProvider;
let payments: SandboxControl;
let esCaller: AgentCaller;
let usCaller: AgentCaller;
let reviewer: Actor;
let reviewer2: Actor;
let seq = 0;

beforeAll(async () => {
  sandbox = await startSandboxProvider({
    webhook: { url: "http://127.0.0.1:9/", secret: `whsec_${randomUUID().replace(/-/g, "")}` },
  });
  payments = sandbox.control;
  ({ control: shop, stop: stopShop } = await startShopBehindEndpoint(ES));
  await allowKindTool([ES, US], CANCELLATION_TOOL);
  const es = await authenticateAgentKey(`Bearer ${webKey(ES)}`);
  const us = await authenticateAgentKey(`Bearer ${webKey(US)}`);
  if (!es.ok || !us.ok) throw new Error("demo agent key refused");
  esCaller = es.caller;
  usCaller = us.caller;
  reviewer = await actorFor(staffOf(ES, "reviewer").email);
  reviewer2 = await actorFor(staffOf(ES, "reviewer", 1).email);
});

afterAll(async () => {
  await stopProposalChanges();
  await stopShop?.();
  await sandbox?.stop();
});

beforeEach(async () => {
  await shop.clearFaults();
  await payments.clearFaults();
});

async function call(caller: AgentCaller, tenant: string, customer: string, args: unknown, tool = CANCELLATION_TOOL) {
  return executeToolCall(
    caller,
    {
      traceId: `cxl-${randomUUID()}`,
      transport: "anthropic",
      callId: `toolu_cxl_${++seq}`,
      endUserToken: await tokenFor(tenant, customer),
      model: null,
      promptVersion: null,
    },
    tool,
    args,
  );
}
const prepare = (number: string, customer = ana) =>
  call(esCaller, ES, customer, { order_id: number, reason: "changed_mind" });

/** A fresh paid card order of ana's (EUR), its payment intent known to the payment sandbox, the order to the shop. */
async function freshOrder(amountMinor = 2_000) {
  const pi = `pi_cxl_${Date.now().toString(36)}_${++seq}`;
  await payments.createPaymentIntent({ id: pi, amount: amountMinor, currency: "eur" });
  const o = await freshCardOrder(amountMinor, { prefix: "X", paymentRef: pi, holderName: "Ana García" });
  await shop.setOrder(o.number, { status: "unfulfilled" });
  return { ...o, pi, amountMinor };
}

function resultOf(outcome: { code: string }): Record<string, unknown> {
  if (!("result" in outcome)) throw new Error(`expected a result, got ${JSON.stringify(outcome)}`);
  return outcome.result as Record<string, unknown>;
}

/** Prepared and approved by one reviewer (amounts below tienda-es's two-reviewer threshold). */
async function approvedCancellation(amountMinor = 2_000) {
  const o = await freshOrder(amountMinor);
  const { outcome, proposal } = await prepare(o.number);
  expect(outcome.code).toBe("approval_required");
  await approveProposal(reviewer, { proposalId: proposal!.id, hash: proposal!.hash });
  return { o, id: proposal!.id };
}

const followUpOf = (parentId: string) => db().proposal.findUnique({ where: { parentId } });
const shopCancellations = async (number: string) => (await shop.actions({ orderNumber: number })).data.length;
const providerRefunds = async (pi: string) => (await payments.counters()).paymentIntents[pi]?.refunds ?? 0;

describe("prepare_order_cancellation", () => {
  it("derives the order, its items and total and the refund (amount, recipient) from the records; all hashed (v5)", async () => {
    const o = await freshOrder(2_000);
    const items = [{ sku: "MUG-1", name: "Blue mug", quantity: 2, unitMinor: 1_000 }];
    await db().order.update({ where: { id: o.orderId }, data: { items } });
    const { outcome, proposal } = await prepare(o.number);
    const result = resultOf(outcome);
    expect(result).toMatchObject({
      kind: "cancel_order",
      order_id: o.number,
      total: { minor: 2_000, currency: "EUR" },
      refund: { amount: { minor: 2_000, currency: "EUR" }, recipient: { kind: "card", holder: "Ana García" } },
      reason: "changed_mind",
      approvals_required: 1,
    });
    expect(result.items).toEqual([{ sku: "MUG-1", name: "Blue mug", quantity: 2 }]);
    const row = await db().proposal.findUniqueOrThrow({ where: { id: proposal!.id } });
    expect(row).toMatchObject({ kind: "cancel_order", hashVersion: KIND_HASH_VERSION, status: P.pendingApproval });
    expect(row.amountMinor).toBeNull();
    expect(storedProposalIntact(row)).toBe(true);
    // Every value the reviewer reads is a hashed param: changing the refund's recipient behind the hash breaks it.
    const params = row.params as { refund: { recipient: { display: string } } };
    const tampered = {
      ...row,
      params: {
        ...params,
        refund: { ...params.refund, recipient: { ...params.refund.recipient, display: "Visa •••• 0000" } },
      },
    };
    expect(storedProposalIntact(tampered as typeof row)).toBe(false);
    // The page shows the refund with the cancellation (from the params).
    const page = await getKindProposal(reviewer, proposal!.id);
    const fields = Object.fromEntries(page.review.fields.map((f) => [f.key, f.after]));
    expect(fields).toMatchObject({
      order: o.number,
      items: "2 × Blue mug (MUG-1)",
      total: "€20.00",
      refund: "€20.00",
      status: "cancelled",
    });
    expect(fields.recipient).toContain("Ana García");
    // The same call again answers the same pending proposal.
    expect((await prepare(o.number)).proposal?.id).toBe(proposal!.id);
  });

  it("two reviewers when the refund reaches the tenant's two-reviewer threshold", async () => {
    const t = await db().tenant.findUniqueOrThrow({ where: { slug: ES } });
    const o = await freshOrder(t.dualApprovalThresholdMinor ?? 50_000);
    expect(resultOf((await prepare(o.number)).outcome)).toMatchObject({ approvals_required: 2 });
  });

  it("refuses a shipped or already cancelled order (permission_denied with the reason), another tenant's as not found", async () => {
    const shipped = await freshOrder();
    await db().order.update({ where: { id: shipped.orderId }, data: { fulfilment: "shipped" } });
    expect((await prepare(shipped.number)).outcome).toMatchObject({
      code: "permission_denied",
      error: { reason: "order_shipped" },
    });
    const cancelled = await freshOrder();
    await db().order.update({ where: { id: cancelled.orderId }, data: { status: "cancelled" } });
    expect((await prepare(cancelled.number)).outcome).toMatchObject({
      code: "permission_denied",
      error: { reason: "order_cancelled" },
    });
    const foreign = await call(usCaller, US, john, { order_id: shipped.number, reason: "other" });
    expect(foreign.outcome).toMatchObject({ code: "not_found" });
    expect(await db().proposal.count({ where: { orderId: { in: [shipped.orderId, cancelled.orderId] } } })).toBe(0);
  });

  it("a refund made elsewhere between prepare and approval: invalidated (refund_changed), nothing cancelled", async () => {
    const o = await freshOrder();
    const { proposal } = await prepare(o.number);
    // (As the provider's webhook or the Orders API would record it in the ledger.)
    const pay = await db().payment.findFirstOrThrow({ where: { orderId: o.orderId } });
    await db().refund.create({
      data: {
        tenantId: pay.tenantId,
        orderId: o.orderId,
        paymentId: pay.id,
        amountMinor: 500,
        currency: "EUR",
        status: "succeeded",
        reason: "refunded at the till",
      },
    });
    expect(await refusal(approveProposal(reviewer, { proposalId: proposal!.id, hash: proposal!.hash }))).toMatchObject({
      code: "invalidated",
    });
    expect(await db().proposal.findUniqueOrThrow({ where: { id: proposal!.id } })).toMatchObject({
      status: P.invalidated,
      invalidationReason: "refund_changed",
    });
    await runJobsOnce();
    expect(await shopCancellations(o.number)).toBe(0);
  });
});

describe("execution: the shop cancels, then the refund is paid — two keyed steps under one approval", () => {
  it("both steps once: the order cancelled at the shop and here, the refund paid to the original payment", async () => {
    const { o, id } = await approvedCancellation();
    await runJobsOnce();
    await runJobsOnce(); // step 2 is queued by step 1's success
    const parent = await db().proposal.findUniqueOrThrow({ where: { id }, include: { execution: true } });
    expect(parent.status).toBe(P.succeeded);
    expect(parent.execution).toMatchObject({ status: E.succeeded, idempotencyKey: `cancel_order-${id}` });
    expect((await shop.order(o.number))?.status).toBe("cancelled");
    const child = asRefund((await followUpOf(id))!);
    expect(child).toMatchObject({
      kind: "refund",
      parentId: id,
      amountMinor: 2_000,
      currency: "EUR",
      recipientRef: o.pi,
      status: P.succeeded,
      traceId: parent.traceId,
    });
    expect(storedProposalIntact(child)).toBe(true);
    // No approval of its own: its authority is the parent's.
    expect(await db().approval.count({ where: { proposalId: child.id } })).toBe(0);
    expect(await db().execution.findUniqueOrThrow({ where: { proposalId: child.id } })).toMatchObject({
      status: E.succeeded,
      idempotencyKey: `refund-${child.id}`,
    });
    expect(await shopCancellations(o.number)).toBe(1);
    expect(await providerRefunds(o.pi)).toBe(1);
    const order = await db().order.findUniqueOrThrow({ where: { id: o.orderId } });
    expect(order.status).toBe("cancelled"); // not "refunded": a cancelled order stays cancelled
    // Ops see the two steps linked, each from the other's execution (the tenant's own only).
    const ops = await actorFor(staffOf(ES, "ops").email);
    const parentDetail = await getExecutionDetail(ops, { executionId: parent.execution!.id });
    const childEx = await db().execution.findUniqueOrThrow({ where: { proposalId: child.id } });
    expect(parentDetail.steps).toEqual({
      partOf: null,
      followUp: { proposalId: child.id, kind: "refund", status: P.succeeded, executionId: childEx.id },
    });
    expect((await getExecutionDetail(ops, { executionId: childEx.id })).steps).toEqual({
      partOf: { proposalId: id, kind: "cancel_order", executionId: parent.execution!.id },
      followUp: null,
    });
    // Reviewers see the same link on the proposal pages; the follow-up is no "possible duplicate" of its parent.
    const childPage = await getProposal(reviewer, child.id);
    expect(childPage.steps).toEqual({ partOf: { id, kind: "cancel_order", status: P.succeeded }, followUp: null });
    expect("possibleDuplicateOf" in childPage ? childPage.possibleDuplicateOf : "missing").toBeNull();
    expect((await getKindProposal(reviewer, id)).steps).toEqual({
      partOf: null,
      followUp: { id: child.id, kind: "refund", status: P.succeeded },
    });
    // Run again (a retry, a second worker): neither step acts twice.
    expect(await executeApprovedProposal(id)).toBe("already_started");
    expect(await executeApprovedProposal(child.id)).toBe("already_started");
    await runJobsOnce();
    expect(await shopCancellations(o.number)).toBe(1);
    expect(await providerRefunds(o.pi)).toBe(1);
  });

  it("the shop refuses (shipped meanwhile at the shop): the cancellation fails and no refund is ever made", async () => {
    const { o, id } = await approvedCancellation();
    await shop.setOrder(o.number, { status: "shipped" });
    await runJobsOnce();
    await runJobsOnce();
    expect(await db().proposal.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: P.failed });
    expect(await followUpOf(id)).toBeNull();
    expect(await providerRefunds(o.pi)).toBe(0);
  });

  it("step 2 in doubt (the provider commits and never answers): reconciled by lookup, one refund", async () => {
    const { o, id } = await approvedCancellation();
    await payments.addFault({ kind: "accept_then_hang", paymentIntent: o.pi });
    expect(await executeApprovedProposal(id)).toBe("sent"); // step 1
    const child = (await followUpOf(id))!;
    expect(child.status).toBe(P.approved);
    expect(await executeApprovedProposal(child.id)).toBe("sent"); // step 2, its answer lost
    const ex = await db().execution.findUniqueOrThrow({ where: { proposalId: child.id } });
    expect(ex.status).toBe(E.unknown);
    expect((await db().proposal.findUniqueOrThrow({ where: { id: child.id } })).status).toBe(P.needsReconciliation);
    expect(await providerRefunds(o.pi)).toBe(1);
    // The agent asking about the cancellation hears that the refund is being confirmed, not that it is all done.
    const status = () =>
      call(esCaller, ES, ana, { proposal_id: id, wait_seconds: null }, "get_action_status").then((r) => r.outcome);
    expect(await status()).toMatchObject({
      code: "result_pending",
      result: {
        kind: "cancel_order",
        status: P.succeeded,
        phase: "in_doubt",
        follow_up: { kind: "refund", status: P.needsReconciliation },
      },
    });
    // An agent waiting on the cancellation is woken by its refund settling (the follow-up's change), not by the
    // wait's end: the wait listens to the follow-up once the first step succeeded.
    const started = Date.now();
    const waited = call(esCaller, ES, ana, { proposal_id: id, wait_seconds: 20 }, "get_action_status").then(
      (r) => r.outcome,
    );
    // Waiting on the refund itself: the wait first registers on the cancellation, reads that it succeeded and moves
    // to its follow-up. Settling while it still watched the cancellation left it nothing to wait for (a CI run met it).
    await expect.poll(() => proposalWaiterCount(child.id), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await reconcileAnyExecution(ex.id)).toBe("settled");
    expect(await waited).toMatchObject({
      code: "ok",
      result: { follow_up: { kind: "refund", status: P.succeeded }, wait: { outcome: "changed" } },
    });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(await status()).toMatchObject({
      code: "ok",
      result: { follow_up: { kind: "refund", status: P.succeeded } },
    });
    expect(await db().execution.findUniqueOrThrow({ where: { id: ex.id } })).toMatchObject({
      status: E.succeeded,
      attempts: 1,
    });
    await runJobsOnce();
    expect(await providerRefunds(o.pi)).toBe(1);
    expect(await shopCancellations(o.number)).toBe(1);
  });
});

describe("the follow-up's authority is its parent's approval, and only for what the parent approved", () => {
  it("a follow-up whose amount was changed behind the approval (and re-hashed) is refused: follow_up_not_authorised", async () => {
    const { o, id } = await approvedCancellation();
    expect(await executeApprovedProposal(id)).toBe("sent"); // step 1 only; step 2 waits in the queue
    const child = (await followUpOf(id))!;
    // Someone with write access to the table raises the refund and recomputes its hash so the row looks intact.
    const raised = { ...child, amountMinor: 2_000 + 1 };
    const hash = computeProposalHash(hashInputOf(raised));
    await db().proposal.update({ where: { id: child.id }, data: { amountMinor: raised.amountMinor, hash } });
    expect(storedProposalIntact({ ...raised, hash })).toBe(true);
    await db().payment.updateMany({ where: { orderId: o.orderId }, data: { amountMinor: 3_000 } });
    await db().order.update({ where: { id: o.orderId }, data: { capturedMinor: 3_000 } });
    expect(await executeApprovedProposal(child.id)).toBe("revalidation_failed");
    expect(await db().proposal.findUniqueOrThrow({ where: { id: child.id } })).toMatchObject({
      status: P.invalidated,
      invalidationReason: "follow_up_not_authorised",
    });
    expect(await providerRefunds(o.pi)).toBe(0);
  });

  it("a follow-up of a parent that has not carried out its own step is refused; a second follow-up cannot exist", async () => {
    const { o, id } = await approvedCancellation();
    // A refund claiming to follow the still-unexecuted cancellation.
    const order = await db().order.findUniqueOrThrow({ where: { id: o.orderId } });
    const forged = await forgeFollowUp(id, order);
    expect(await executeApprovedProposal(forged)).toBe("revalidation_failed");
    expect(await db().proposal.findUniqueOrThrow({ where: { id: forged } })).toMatchObject({
      status: P.invalidated,
      invalidationReason: "parent_not_carried_out",
    });
    expect(await providerRefunds(o.pi)).toBe(0);
    // One follow-up per parent, whatever writes it (the unique index).
    await expect(forgeFollowUp(id, order)).rejects.toThrow(/Proposal_parentId_key/);
  });

  it("the refund a cancellation pays counts toward the reviewer's daily approval cap, like a refund's amount", async () => {
    const o = await freshOrder(2_000);
    const { proposal } = await prepare(o.number);
    const tenant = await db().tenant.findUniqueOrThrow({ where: { slug: ES } });
    await db().tenant.update({ where: { id: tenant.id }, data: { reviewerDailyApprovalLimitMinor: 1_999 } });
    try {
      expect(
        await refusal(approveProposal(reviewer, { proposalId: proposal!.id, hash: proposal!.hash })),
      ).toMatchObject({ code: "limit_exceeded", reason: "daily_total" });
      expect(await db().approval.count({ where: { proposalId: proposal!.id } })).toBe(0);
    } finally {
      await db().tenant.update({
        where: { id: tenant.id },
        data: { reviewerDailyApprovalLimitMinor: tenant.reviewerDailyApprovalLimitMinor },
      });
    }
  });

  it("one person cannot play both reviewers of a two-reviewer cancellation", async () => {
    const t = await db().tenant.findUniqueOrThrow({ where: { slug: ES } });
    const o = await freshOrder(t.dualApprovalThresholdMinor ?? 50_000);
    const { proposal } = await prepare(o.number);
    await approveProposal(reviewer, { proposalId: proposal!.id, hash: proposal!.hash });
    expect(await refusal(approveProposal(reviewer, { proposalId: proposal!.id, hash: proposal!.hash }))).toMatchObject({
      code: "permission_denied",
    });
    await approveProposal(reviewer2, { proposalId: proposal!.id, hash: proposal!.hash });
    expect((await db().proposal.findUniqueOrThrow({ where: { id: proposal!.id } })).status).toBe(P.approved);
  });
});

/** A follow-up refund of `parentId` written by the product's own writer (build-proposal.ts), whatever the parent's state. */
async function forgeFollowUp(
  parentId: string,
  order: { id: string; tenantId: string; customerId: string; currency: string; capturedMinor: number },
): Promise<string> {
  const parent = await db().proposal.findUniqueOrThrow({ where: { id: parentId } });
  const built = await transaction((tx) =>
    buildProposal(sqlOf(tx), {
      tenantId: order.tenantId,
      order,
      customerId: order.customerId,
      reason: "cancelled_order",
      requester: { agentKeyId: parent.requestedByAgentKeyId! },
      channelId: parent.channelId,
      endUserId: parent.endUserId,
      traceId: parent.traceId,
      supersedesId: null,
      wantedMinor: 2_000,
      followUpOf: { parentId, requiredApprovals: parent.requiredApprovals },
      now: new Date(),
    }),
  );
  if (!built.ok) throw new Error(built.reason);
  return built.proposal.id;
}

describe("evidence", () => {
  it("the follow-up refund's pack proves its authority offline: the cancellation, its approval, the same money", async () => {
    const { id } = await approvedCancellation();
    await runJobsOnce();
    await runJobsOnce();
    const child = (await followUpOf(id))!;
    expect(child.status).toBe(P.succeeded);
    const auditor = await actorFor(staffOf(ES, "auditor").email);
    await integratePending(); // the sequencer's batch (it runs in the app; here, once)
    const { body } = await buildEvidencePack(auditor, child.id);
    const publicKey = auditPublicKey().publicKey;
    const verdict = await verifyEvidencePack(body, { publicKey });
    expect(verdict.checks.filter((c) => !c.ok)).toEqual([]);
    expect(verdict.checks.map((c) => c.name)).toEqual(
      expect.arrayContaining(["authority approvals", "follow-up within what was approved"]),
    );
    const pack = JSON.parse(body) as EvidencePack;
    expect(pack.approvals).toEqual([]);
    expect(pack.authority?.proposal.id).toBe(id);
    expect(pack.authority?.approvals).toEqual([expect.objectContaining({ approverId: reviewer.userId })]);
    // The same pack without its authority (re-digested, so only that is missing) proves nobody authorised the refund.
    const { authority: _authority, packDigest: _digest, ...stripped } = pack;
    const without = await verifyEvidencePack(serializeEvidencePack(stripped), { publicKey });
    expect(without.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(["approvals for the execution"]);
  });
});
