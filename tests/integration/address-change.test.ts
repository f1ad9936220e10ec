// The address-change kind (docs/action-kinds.md) end to end, against the real database and the real sandbox shop (a
// spawned process on its own database): prepare_address_change through the gateway (normalised address, refusals,
// one proposal per order, a new address replaces the pending one, two approvals across a border), approval bound to
// the hash, the order re-checked at approval and before execution, and execution on the shop's action endpoint
// exactly once — a lost answer is reconciled by the GET, a 5xx re-sent with the same key, a refusal by the shop
// fails cleanly; the audit trail keeps fingerprints of the addresses, never the addresses.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ShopControl } from "@/shop-sandbox/control-client";
import { executionStatus } from "@/lib/domain/execution-state";
import { proposalStatus as P } from "@/lib/domain/proposal-state";
import { storedProposalIntact, KIND_CONFIRMATION_HASH_VERSION } from "@/lib/domain/proposal-hash";
import { authenticateAgentKey, type AgentCaller } from "@/lib/server/agent/authenticate-agent-key";
import { executeToolCall } from "@/lib/server/agent/execute-tool-call";
import { metrics } from "@/lib/server/telemetry/metrics";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";
import { Prisma } from "@/lib/server/db/generated/client";
import { reconcileAnyExecution } from "@/lib/server/executions/run-execution";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import { recordCustomerDecision } from "@/lib/server/confirmations/record-customer-decision";
import { rejectProposal } from "@/lib/server/proposals/reject-proposal";
import { editProposalAmount } from "@/lib/server/proposals/edit-proposal-amount";
import { reprepareProposal } from "@/lib/server/proposals/reprepare-proposal";
import { listDecidedProposals } from "@/lib/server/proposals/list-decided-proposals";
import { getInbox } from "@/lib/server/inbox/get-inbox";
import { getAuditTrace } from "@/lib/server/audit/get-audit-trace";
import { buildEvidencePack } from "@/lib/server/audit/build-evidence-pack";
import { auditPublicKey } from "@/lib/server/audit/signing-key";
import { integratePending } from "@/lib/server/audit/sequencer";
import { verifyEvidencePack } from "@/lib/domain/evidence-pack";
import { stopProposalChanges } from "@/lib/server/realtime/proposal-changes";
import { addressFingerprint } from "@/lib/actions/address-change/prepare";
import type { PostalAddress } from "@/lib/domain/postal-address";
import { getProposal } from "@/lib/server/proposals/get-proposal";
import { isRefundDetail } from "@/lib/schemas/proposal-page";
import { listPendingProposals } from "@/lib/server/proposals/list-pending-proposals";
import { actorFor, staffOf } from "../support/actors";
import { refusal } from "../support/refusal";
import { runJobsOnce } from "../support/run-jobs-once";
import {
  ADDRESS_CHANGE_TOOL,
  allowAddressChangeTool,
  copyDemoOrder,
  startShopBehindEndpoint,
} from "../support/address-change-shop";
import { freshCardOrder } from "./proposal-support";
import { ES, US, ana, john, pablo, tokenFor, webKey } from "./gateway-support";

const TOOL = ADDRESS_CHANGE_TOOL;

let stopShop: (() => Promise<void>) | undefined;
let control: ShopControl;
let esCaller: AgentCaller;
let usCaller: AgentCaller;
let reviewer: Actor;
let reviewer2: Actor;
let seq = 0;

/** A Madrid address in the wire form the model sends. */
const madrid = (line1 = "Calle de Alcalá 50", over: Record<string, unknown> = {}) => ({
  name: "Ana García",
  line1,
  line2: null,
  city: "Madrid",
  postal_code: "28014",
  region: null,
  country: "es",
  ...over,
});

async function call(caller: AgentCaller, tenant: string, customer: string, args: unknown, tool: string = TOOL) {
  return executeToolCall(
    caller,
    {
      traceId: `addr-${randomUUID()}`,
      transport: "anthropic",
      callId: `toolu_${++seq}`,
      endUserToken: await tokenFor(tenant, customer),
      model: null,
      promptVersion: null,
    },
    tool,
    args,
  );
}
/** This process's approvalgw_executions_total for a kind and result (0 before the first). */
async function executionsCounted(kind: string, result: string): Promise<number> {
  const { values } = await metrics().executions.get();
  return values.find((v) => v.labels.kind === kind && v.labels.result === result)?.value ?? 0;
}

/** A success answer's result (a failure has none: the test fails on it). */
function resultOf(outcome: { code: string }): Record<string, unknown> {
  if (!("result" in outcome)) throw new Error(`expected a result, got ${JSON.stringify(outcome)}`);
  return outcome.result as Record<string, unknown>;
}
/** get_action_status, the status tool every kind shares. */
const actionStatus = (proposalId: string, waitSeconds: number | null = null, customer = ana, caller = () => esCaller) =>
  call(
    caller(),
    caller() === esCaller ? ES : US,
    customer,
    { proposal_id: proposalId, wait_seconds: waitSeconds },
    "get_action_status",
  );
const prepare = (orderId: string, address: unknown, customer = ana) =>
  call(esCaller, ES, customer, { order_id: orderId, new_address: address });

/** A fresh unfulfilled order of ana's, known to the shop too (the shop owns fulfilment). */
const freshOrder = () => copyDemoOrder("A", control);

const proposalOf = (id: string) => db().proposal.findUniqueOrThrow({ where: { id } });
const orderRow = (number: string) => db().order.findFirstOrThrow({ where: { number, tenant: { slug: ES } } });
const approve = (actor: Actor, p: { id: string; hash: string }) =>
  approveProposal(actor, { proposalId: p.id, hash: p.hash });
/**
 * The customer confirms on the link the prepare answer carried: an address change within the country needs only the
 * customer (docs/action-kinds.md, "Who confirms"); the shop then carries it out with no reviewer.
 */
async function customerConfirms(p: { id: string; hash: string }, outcome: { code: string }) {
  const token = String(resultOf(outcome).confirm_url).split("/confirm/")[1]!;
  const answer = await recordCustomerDecision(
    token,
    { proposal_id: p.id, hash: p.hash, decision: "confirm", reason: null },
    null,
  );
  if (!answer.ok) throw new Error(`the customer's confirmation was refused: ${answer.code}`);
  return answer;
}

beforeAll(async () => {
  ({ control, stop: stopShop } = await startShopBehindEndpoint(ES));
  await allowAddressChangeTool([ES, US]);
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
});

beforeEach(async () => {
  await control.clearFaults();
});

describe("prepare_address_change", () => {
  it("derives before → after from the order, normalised, hashed (v6: who confirms), the customer alone within a country", async () => {
    const number = await freshOrder();
    const before = (await orderRow(number)).shippingAddress;
    const { outcome, proposal } = await prepare(number, madrid("  Calle de  Alcalá 50 "));
    expect(outcome).toMatchObject({
      code: "approval_required",
      result: {
        kind: "change_shipping_address",
        order_id: number,
        before,
        after: { line1: "Calle de Alcalá 50", country: "ES", postalCode: "28014", line2: null },
        changed: ["line1", "postalCode"],
        approvals_required: 1,
        confirm_url: expect.stringMatching(/\/confirm\/[A-Za-z0-9_-]{43}$/),
      },
    });
    const row = await proposalOf(proposal!.id);
    expect(row).toMatchObject({
      kind: "change_shipping_address",
      hashVersion: KIND_CONFIRMATION_HASH_VERSION,
      confirmation: "customer",
      status: P.pendingApproval,
    });
    expect(row.amountMinor).toBeNull();
    expect(storedProposalIntact(row)).toBe(true);
    // The audit keeps fingerprints of the addresses, never the street.
    const events = await db().auditEvent.findMany({ where: { proposalId: proposal!.id } });
    expect(events.length).toBeGreaterThan(0);
    const written = JSON.stringify(events.map((e) => e.data));
    expect(written).not.toContain("Alcal");
    expect(written).toMatch(/fp:[0-9a-f]{16}/);
    // Exactly the fingerprints the kind made, searchable as they are (never scrubbed a second time).
    const params = row.params as { before: PostalAddress; after: PostalAddress };
    const made = [addressFingerprint(params.after), addressFingerprint(params.before)];
    expect(written).not.toContain("fp:fp:");
    const prepared = events.find((e) => e.action === "tool:prepare_address_change");
    expect(prepared?.fingerprints).toEqual(expect.arrayContaining(made));
  });

  it("refuses an address that is not valid for its country, naming the field; nothing is created", async () => {
    const number = await freshOrder();
    const { outcome } = await prepare(number, madrid(undefined, { postal_code: "ABC" }));
    expect(outcome).toMatchObject({
      code: "invalid_arguments",
      error: { problems: [{ path: "$.new_address.postal_code" }] },
    });
    const bad = await prepare(number, madrid(undefined, { country: "XX" }));
    expect(bad.outcome).toMatchObject({
      code: "invalid_arguments",
      error: { problems: [{ path: "$.new_address.country" }] },
    });
    expect(await db().proposal.count({ where: { orderNumber: number } })).toBe(0);
  });

  it("refuses a shipped order, another customer's and another tenant's order alike (not found)", async () => {
    // ORD-1004 is pablo's and has shipped.
    expect((await prepare("ORD-1004", madrid(), pablo)).outcome).toMatchObject({
      code: "permission_denied",
      error: { reason: "order_shipped" },
    });
    const mine = await prepare("ORD-1003", madrid(), ana); // pablo's order, ana asking
    expect(mine.outcome).toMatchObject({ code: "not_found" });
    const foreign = await call(usCaller, US, john, { order_id: "ORD-1001", new_address: madrid() });
    expect(foreign.outcome).toMatchObject({ code: "not_found" });
    // The same answer as for an order that does not exist: nothing of ana's order shows through.
    expect(JSON.stringify(foreign.outcome)).not.toContain("Calle Mayor");
  });

  it("refuses the address the order already has", async () => {
    const number = await freshOrder();
    const { postalCode, ...current } = (await orderRow(number)).shippingAddress as Record<string, string | null>;
    const same = { ...current, postal_code: postalCode };
    expect((await prepare(number, same)).outcome).toMatchObject({
      code: "invalid_arguments",
      error: { reason: "address_unchanged" },
    });
  });

  it("concurrent prepares of the same change make one proposal; another address replaces it", async () => {
    const number = await freshOrder();
    const results = await Promise.all(Array.from({ length: 5 }, () => prepare(number, madrid())));
    const ids = new Set(results.map((r) => r.proposal?.id));
    expect(ids.size).toBe(1);
    expect(await db().proposal.count({ where: { orderNumber: number, status: P.pendingApproval } })).toBe(1);
    const [first] = [...ids];
    const replaced = await prepare(number, madrid("Calle de Alcalá 52"));
    expect(replaced.proposal!.id).not.toBe(first);
    expect(await proposalOf(first!)).toMatchObject({
      status: P.invalidated,
      invalidationReason: "replaced_by_new_address",
    });
    expect(await proposalOf(replaced.proposal!.id)).toMatchObject({ status: P.pendingApproval, supersedesId: first });
  });

  it("no address on record to compare with needs two reviewers; a tenant without an action endpoint is told so", async () => {
    const number = await freshOrder();
    await db().order.updateMany({ where: { number }, data: { shippingAddress: Prisma.DbNull } });
    const { outcome } = await prepare(number, madrid());
    expect(outcome).toMatchObject({ code: "approval_required", result: { before: null, approvals_required: 2 } });

    // Without an endpoint nothing could ever carry it out: refused at prepare, no proposal.
    const tenantId = (await orderRow(number)).tenantId;
    const endpoint = await db().actionEndpoint.findUniqueOrThrow({ where: { tenantId } });
    await db().actionEndpoint.delete({ where: { tenantId } });
    try {
      const other = await freshOrder();
      expect((await prepare(other, madrid())).outcome).toMatchObject({
        code: "permission_denied",
        error: { reason: "action_endpoint_not_configured" },
      });
      expect(await db().proposal.count({ where: { orderNumber: other } })).toBe(0);
    } finally {
      await db().actionEndpoint.create({ data: endpoint });
    }
  });

  it("a new country needs two reviewers and the customer", async () => {
    const number = await freshOrder();
    const lisbon = { ...madrid("Rua Augusta 10"), city: "Lisboa", postal_code: "1100-053", country: "PT" };
    const { outcome, proposal } = await prepare(number, lisbon);
    expect(outcome).toMatchObject({ code: "approval_required", result: { approvals_required: 2 } });
    expect(await proposalOf(proposal!.id)).toMatchObject({ confirmation: "both" });
    expect(await approve(reviewer, proposal!)).toMatchObject({ status: P.pendingApproval, approvals: 1 });
    // Both reviewers: still waiting for the customer, whose confirmation then approves it.
    expect(await approve(reviewer2, proposal!)).toMatchObject({ status: P.pendingApproval, approvals: 2 });
    expect(await customerConfirms(proposal!, outcome)).toMatchObject({ status: P.approved });
  });
});

describe("after a rejection", () => {
  it("the same address is answered rejected with the reviewer's reason during the cool-down; a corrected one is a new request", async () => {
    const number = await freshOrder();
    const { proposal } = await prepare(number, madrid("Calle de Alcalá 95"));
    await rejectProposal(reviewer, {
      proposalId: proposal!.id,
      hash: proposal!.hash,
      customerMessage: "That street number does not exist.",
    });
    const again = await prepare(number, madrid("  calle de alcalá 95 "));
    expect(again.outcome).toMatchObject({
      code: "rejected",
      error: {
        order_id: number,
        reason: "That street number does not exist.",
        previous_proposal_id: proposal!.id,
        retry_after: expect.any(String),
      },
    });
    expect(await db().proposal.count({ where: { orderNumber: number } })).toBe(1);
    // A corrected address: a new proposal.
    expect((await prepare(number, madrid("Calle de Alcalá 59"))).outcome).toMatchObject({ code: "approval_required" });
    // Once the cool-down is over, the rejected address may be asked again.
    await db().proposal.update({
      where: { id: proposal!.id },
      data: { decidedAt: new Date(Date.now() - 7 * 24 * 3_600_000) },
    });
    expect((await prepare(number, madrid("Calle de Alcalá 95"))).outcome).toMatchObject({ code: "approval_required" });
  });
});

describe("the refund's own staff actions on an address change", () => {
  it("a forged 'lower the amount' or 're-prepare' is refused with a stable code and changes nothing", async () => {
    const number = await freshOrder();
    const { proposal } = await prepare(number, madrid("Calle de Alcalá 90"));
    const ops = await actorFor(staffOf(ES, "ops").email);
    expect(
      await refusal(editProposalAmount(reviewer, { proposalId: proposal!.id, hash: proposal!.hash, amountMinor: 100 })),
    ).toMatchObject({ code: "invalid_arguments", reason: "kind_not_supported" });
    await db().proposal.update({ where: { id: proposal!.id }, data: { status: P.expired } });
    expect(await refusal(reprepareProposal(ops, { proposalId: proposal!.id }))).toMatchObject({
      code: "invalid_arguments",
      reason: "kind_not_supported",
    });
    expect(await db().proposal.count({ where: { supersedesId: proposal!.id } })).toBe(0);
  });
});

describe("approval and execution on the shop's action endpoint", () => {
  it("approved → the shop changes the address once, and our copy of the order follows", async () => {
    await runJobsOnce(); // what earlier cases left queued, so only this one's send is counted below
    const sends = await executionsCounted("change_shipping_address", "succeeded");
    const number = await freshOrder();
    const { proposal, outcome } = await prepare(number, madrid());
    await customerConfirms(proposal!, outcome);
    await runJobsOnce();
    // Counted by kind, as the payment provider's sends are (approvalgw_executions_total).
    expect((await executionsCounted("change_shipping_address", "succeeded")) - sends).toBe(1);
    const ex = await db().execution.findUniqueOrThrow({ where: { proposalId: proposal!.id } });
    expect(ex).toMatchObject({
      status: executionStatus.succeeded,
      idempotencyKey: `change_shipping_address-${proposal!.id}`,
      attempts: 1,
    });
    expect(ex.actionReference).toMatch(/^adr_/);
    expect(await proposalOf(proposal!.id)).toMatchObject({ status: P.succeeded });
    expect((await control.order(number))?.shippingAddress).toMatchObject({
      line1: "Calle de Alcalá 50",
      country: "ES",
    });
    expect((await orderRow(number)).shippingAddress).toMatchObject({
      line1: "Calle de Alcalá 50",
      postalCode: "28014",
    });
    expect((await control.actions({ orderNumber: number })).data).toHaveLength(1);
  });

  it("an address changed elsewhere, or a shipment, between prepare and approval invalidates it", async () => {
    const number = await freshOrder();
    const { proposal } = await prepare(number, madrid());
    const order = await orderRow(number);
    await db().order.update({
      where: { id: order.id },
      data: { shippingAddress: { ...(order.shippingAddress as object), line1: "Calle Mayor 3" } },
    });
    expect(await refusal(approve(reviewer, proposal!))).toMatchObject({ code: "invalidated" });
    expect(await proposalOf(proposal!.id)).toMatchObject({
      status: P.invalidated,
      invalidationReason: "address_changed",
    });

    const shipped = await freshOrder();
    const second = await prepare(shipped, madrid());
    await db().order.updateMany({ where: { number: shipped }, data: { fulfilment: "shipped" } });
    expect(await refusal(approve(reviewer, second.proposal!))).toMatchObject({ code: "invalidated" });
    expect(await proposalOf(second.proposal!.id)).toMatchObject({ invalidationReason: "order_shipped" });
  });

  it("a hashed value changed in the database behind the hash: approval refused, nothing sent", async () => {
    const number = await freshOrder();
    const { proposal } = await prepare(number, madrid());
    const row = await proposalOf(proposal!.id);
    const params = row.params as { after: Record<string, unknown> };
    await db().proposal.update({
      where: { id: row.id },
      data: { params: { ...params, after: { ...params.after, line1: "Elsewhere 1" } } },
    });
    expect(await refusal(approve(reviewer, proposal!))).toMatchObject({ code: "invalidated" });
    expect(await proposalOf(row.id)).toMatchObject({ invalidationReason: "stored_hash_mismatch" });
    expect((await control.actions({ orderNumber: number })).data).toHaveLength(0);
  });

  it("the shop's answer lost after it committed: in doubt, then the GET settles it without a second action", async () => {
    const number = await freshOrder();
    const { proposal, outcome } = await prepare(number, madrid());
    await control.addFault({ kind: "drop_after_commit", once: true });
    await customerConfirms(proposal!, outcome);
    await runJobsOnce();
    const ex = await db().execution.findUniqueOrThrow({ where: { proposalId: proposal!.id } });
    expect(ex.status).toBe(executionStatus.unknown);
    expect(await proposalOf(proposal!.id)).toMatchObject({ status: P.needsReconciliation });
    expect((await orderRow(number)).shippingAddress).not.toMatchObject({ line1: "Calle de Alcalá 50" });

    expect(await reconcileAnyExecution(ex.id)).toBe("settled");
    expect(await db().execution.findUniqueOrThrow({ where: { id: ex.id } })).toMatchObject({
      status: executionStatus.succeeded,
      attempts: 1,
    });
    expect(await proposalOf(proposal!.id)).toMatchObject({ status: P.succeeded });
    expect((await orderRow(number)).shippingAddress).toMatchObject({ line1: "Calle de Alcalá 50" });
    expect((await control.actions({ orderNumber: number })).data).toHaveLength(1);
    // Settled: a later reconciliation changes nothing.
    expect(await reconcileAnyExecution(ex.id)).toBe("already_settled");
  });

  it("a 5xx before the shop did anything: the GET finds nothing, the re-send uses the same key, one action", async () => {
    const number = await freshOrder();
    const { proposal, outcome } = await prepare(number, madrid());
    await control.addFault({ kind: "fail_5xx", once: true });
    await customerConfirms(proposal!, outcome);
    await runJobsOnce();
    const ex = await db().execution.findUniqueOrThrow({ where: { proposalId: proposal!.id } });
    expect(ex.status).toBe(executionStatus.unknown);
    expect(await reconcileAnyExecution(ex.id)).toBe("resent");
    expect(await db().execution.findUniqueOrThrow({ where: { id: ex.id } })).toMatchObject({
      status: executionStatus.succeeded,
      attempts: 2,
      idempotencyKey: ex.idempotencyKey,
    });
    const actions = (await control.actions({ orderNumber: number })).data;
    expect(actions).toHaveLength(1);
    expect(actions[0]).toMatchObject({ idempotencyKey: ex.idempotencyKey });
  });

  it("the shop answers pending (queued): executing until a look-up finds it done; one action, our copy follows then", async () => {
    const number = await freshOrder();
    const before = (await orderRow(number)).shippingAddress;
    const { proposal, outcome } = await prepare(number, madrid());
    await control.addFault({ kind: "answer_pending", once: true });
    await customerConfirms(proposal!, outcome);
    await runJobsOnce();
    const ex = await db().execution.findUniqueOrThrow({ where: { proposalId: proposal!.id } });
    expect(ex).toMatchObject({ status: executionStatus.pending, actionReference: expect.stringMatching(/^que_/) });
    expect(await proposalOf(proposal!.id)).toMatchObject({ status: P.executing });
    expect((await orderRow(number)).shippingAddress).toEqual(before);

    // Still queued at the shop: the look-up says so and nothing changes (no re-send: the shop holds the key).
    expect(await reconcileAnyExecution(ex.id)).toBe("still_pending");
    expect(await db().execution.findUniqueOrThrow({ where: { id: ex.id } })).toMatchObject({
      status: executionStatus.pending,
      attempts: 1,
    });

    await control.completeAction(ex.idempotencyKey);
    expect(await reconcileAnyExecution(ex.id)).toBe("settled");
    expect(await db().execution.findUniqueOrThrow({ where: { id: ex.id } })).toMatchObject({
      status: executionStatus.succeeded,
      attempts: 1,
      actionReference: expect.stringMatching(/^adr_/),
    });
    expect(await proposalOf(proposal!.id)).toMatchObject({ status: P.succeeded });
    expect((await orderRow(number)).shippingAddress).toMatchObject({ line1: "Calle de Alcalá 50" });
    expect((await control.actions({ orderNumber: number })).data).toHaveLength(1);
    expect(await reconcileAnyExecution(ex.id)).toBe("already_settled");
  });

  it("the shop refuses (shipped meanwhile at the shop): failed, and our copy keeps the old address", async () => {
    const number = await freshOrder();
    const before = (await orderRow(number)).shippingAddress;
    const { proposal, outcome } = await prepare(number, madrid());
    await control.setOrder(number, { status: "shipped" });
    await customerConfirms(proposal!, outcome);
    await runJobsOnce();
    const ex = await db().execution.findUniqueOrThrow({ where: { proposalId: proposal!.id } });
    expect(ex).toMatchObject({ status: executionStatus.failed });
    expect(ex.failureReason).toContain("order_shipped");
    expect(await proposalOf(proposal!.id)).toMatchObject({ status: P.failed });
    expect((await orderRow(number)).shippingAddress).toEqual(before);
  });
});

describe("what reviewers read: the queue row and the proposal page, from the hashed params", () => {
  it("the page shows before → after field by field and the sentence's values; the queue row its one line", async () => {
    const number = await freshOrder();
    const { proposal } = await prepare(number, madrid());
    const page = await getProposal(reviewer, proposal!.id);
    expect(page).toMatchObject({ kind: "change_shipping_address", hash: proposal!.hash, hashIntact: true });
    if (isRefundDetail(page)) throw new Error("not the kind's page");
    const field = (key: string) => page.review.fields.find((f) => f.key === key);
    expect(field("order")).toMatchObject({ after: number, changed: false });
    expect(field("line1")).toMatchObject({ before: "Calle Mayor 1", after: "Calle de Alcalá 50", changed: true });
    expect(field("postalCode")).toMatchObject({ before: "28013", after: "28014", changed: true });
    expect(field("city")).toMatchObject({ before: "Madrid", after: "Madrid", changed: false });
    expect(page.review.sentence).toEqual({
      order: number,
      address: "Ana García, Calle de Alcalá 50, 28014 Madrid, ES",
    });
    // Within one country only the customer confirms: the reviewer may reject it, not approve it.
    expect(page.viewer).toMatchObject({ canDecide: false, canReject: true, canEdit: false, canReprepare: false });
    const row = (await listPendingProposals(reviewer, {})).rows.find((r) => r.id === proposal!.id);
    expect(row).toMatchObject({
      kind: "change_shipping_address",
      orderNumber: number,
      amountMinor: null,
      recipientDisplay: null,
      summary: "Ana García, Calle de Alcalá 50, 28014 Madrid, ES",
    });
    // Another tenant's reviewer does not see it.
    const foreign = await actorFor(staffOf(US, "reviewer").email);
    expect(await refusal(getProposal(foreign, proposal!.id))).toMatchObject({ code: "not_found" });
  });

  it("what is shown is what is hashed: the order's address changed since prepare leaves the page on the hashed values", async () => {
    const number = await freshOrder();
    const { proposal } = await prepare(number, madrid());
    const order = await orderRow(number);
    await db().order.update({
      where: { id: order.id },
      data: { shippingAddress: { ...(order.shippingAddress as object), line1: "Calle Mayor 9" } },
    });
    const page = await getProposal(reviewer, proposal!.id);
    if (isRefundDetail(page)) throw new Error("not the kind's page");
    expect(page.review.fields.find((f) => f.key === "line1")).toMatchObject({ before: "Calle Mayor 1" });
    // The stored params altered behind the hash: the page says so, and the approval is refused (tested above).
    await db().proposal.update({
      where: { id: proposal!.id },
      data: { params: { ...((await proposalOf(proposal!.id)).params as object), changed: [] } },
    });
    expect(await getProposal(reviewer, proposal!.id)).toMatchObject({ hashIntact: false });
  });
});

describe("get_action_status: the status of any kind's proposal", () => {
  it("follows an address change: the exact hashed change awaiting review, a wait woken by the approval, then done", async () => {
    const number = await freshOrder();
    const prepared = await prepare(number, madrid());
    const shown = resultOf(prepared.outcome);
    const pending = await actionStatus(prepared.proposal!.id);
    expect(pending.outcome).toMatchObject({
      code: "approval_required",
      result: {
        proposal_id: prepared.proposal!.id,
        kind: "change_shipping_address",
        status: P.pendingApproval,
        hash: prepared.proposal!.hash,
        approvals_required: 1,
        // The same values the prepare answer showed, from the hashed params.
        action: { order_id: number, before: shown.before, after: shown.after, changed: shown.changed },
      },
    });
    expect((resultOf(pending.outcome) as { action: { after: unknown } }).action.after).toMatchObject({
      line1: "Calle de Alcalá 50",
      postalCode: "28014",
    });

    // A wait on it returns as soon as the customer confirms (within the country, their confirmation approves it).
    const waiting = actionStatus(prepared.proposal!.id, 25);
    await new Promise((r) => setTimeout(r, 300));
    await customerConfirms(prepared.proposal!, prepared.outcome);
    expect((await waiting).outcome).toMatchObject({
      code: "result_pending",
      result: { kind: "change_shipping_address", status: P.approved, phase: "executing", wait: { outcome: "changed" } },
    });
    await runJobsOnce();
    expect((await actionStatus(prepared.proposal!.id)).outcome).toMatchObject({
      code: "ok",
      result: { status: P.succeeded, action: { order_id: number } },
    });
  });

  it("a replaced change is invalidated with what replaced it; a rejected one carries the reason; another customer's or tenant's is not found", async () => {
    const number = await freshOrder();
    const first = await prepare(number, madrid());
    const second = await prepare(number, madrid("Calle de Alcalá 52"));
    expect((await actionStatus(first.proposal!.id)).outcome).toMatchObject({
      code: "invalidated",
      error: {
        kind: "change_shipping_address",
        reason: "replaced_by_new_address",
        superseded_by: { proposal_id: second.proposal!.id, status: P.pendingApproval },
      },
    });
    await rejectProposal(reviewer, {
      proposalId: second.proposal!.id,
      hash: second.proposal!.hash,
      customerMessage: "We cannot ship to that street.",
    });
    expect((await actionStatus(second.proposal!.id)).outcome).toMatchObject({
      code: "rejected",
      error: { reason: "We cannot ship to that street.", action: { order_id: number } },
    });
    // Another customer of the same tenant, and another tenant's key: the same not_found as an id that never was.
    for (const outcome of [
      (await actionStatus(second.proposal!.id, null, pablo)).outcome,
      (await actionStatus(second.proposal!.id, null, john, () => usCaller)).outcome,
      (await actionStatus(randomUUID())).outcome,
    ])
      expect(outcome).toMatchObject({ code: "not_found" });
  });

  it("answers a refund too, with the values prepare_refund showed, and get_refund_status does not answer an address change", async () => {
    const refund = await call(esCaller, ES, ana, { order_id: "ORD-1001", reason: "damaged_item" }, "prepare_refund");
    expect(refund.outcome.code).toBe("approval_required");
    const shown = resultOf(refund.outcome);
    expect((await actionStatus(refund.proposal!.id)).outcome).toMatchObject({
      code: "approval_required",
      result: {
        kind: "refund",
        action: { order_id: shown.order_id, amount: shown.amount, recipient: shown.recipient, reason: "damaged_item" },
      },
    });
    const change = await prepare(await freshOrder(), madrid());
    expect(
      (await call(esCaller, ES, ana, { proposal_id: change.proposal!.id }, "get_refund_status")).outcome,
    ).toMatchObject({ code: "not_found" });
  });

  it("a proposal of a kind this release does not know is never guessed at", async () => {
    const number = await freshOrder();
    const { proposal } = await prepare(number, madrid());
    await db().proposal.update({ where: { id: proposal!.id }, data: { kind: "from_a_newer_release" } });
    try {
      expect((await actionStatus(proposal!.id)).outcome).toMatchObject({
        code: "temporarily_unavailable",
        error: { proposal_id: proposal!.id },
      });
    } finally {
      await db().proposal.update({ where: { id: proposal!.id }, data: { kind: "change_shipping_address" } });
    }
  });
});

describe("the staff's lists present an address change beside the refunds", () => {
  it("the decided list: the kind and its one line from the hashed params, no amount; found by its order number", async () => {
    const number = await freshOrder();
    const { proposal } = await prepare(number, madrid("Calle de Alcalá 60"));
    await rejectProposal(reviewer, { proposalId: proposal!.id, hash: proposal!.hash, customerMessage: "No." });
    const page = await listDecidedProposals(reviewer, { q: number });
    expect(page.rows).toEqual([
      expect.objectContaining({
        id: proposal!.id,
        kind: "change_shipping_address",
        orderNumber: number,
        status: P.rejected,
        amountMinor: null,
        currency: null,
        summary: expect.stringContaining("Calle de Alcalá 60"),
        rejectedBy: staffOf(ES, "reviewer").name,
      }),
    ]);
    // A refund keeps its amount in the same list.
    const paid = await freshCardOrder(3_100, { prefix: "D" });
    const refund = await call(esCaller, ES, ana, { order_id: paid.number, reason: "damaged_item" }, "prepare_refund");
    await rejectProposal(reviewer, {
      proposalId: refund.proposal!.id,
      hash: refund.proposal!.hash,
      customerMessage: "No.",
    });
    expect((await listDecidedProposals(reviewer, { q: paid.number })).rows).toEqual([
      expect.objectContaining({ kind: "refund", amountMinor: 3_100, currency: "EUR", summary: null }),
    ]);
  });

  it("the inbox: a second reviewer is asked for the second approval of a change across a border; the first is not", async () => {
    const number = await freshOrder();
    const lisbon = { ...madrid("Rua Augusta 12"), city: "Lisboa", postal_code: "1100-053", country: "PT" };
    const { proposal } = await prepare(number, lisbon);
    await approve(reviewer, proposal!);
    const second = (await getInbox(reviewer2)).secondApprovals ?? [];
    expect(second.find((i) => i.proposalId === proposal!.id)).toMatchObject({
      kind: "change_shipping_address",
      orderNumber: number,
      amountMinor: null,
      approvals: 1,
      requiredApprovals: 2,
    });
    expect(((await getInbox(reviewer)).secondApprovals ?? []).map((i) => i.proposalId)).not.toContain(proposal!.id);
  });

  it("the trace page: the proposal with its kind and hashed before → after, its prepare step a proposal step", async () => {
    const number = await freshOrder();
    const { proposal } = await prepare(number, madrid("Calle de Alcalá 70"));
    const { traceId } = await proposalOf(proposal!.id);
    const auditor = await actorFor(staffOf(ES, "auditor").email);
    const trace = await getAuditTrace(auditor, traceId);
    expect(trace.proposals).toEqual([
      expect.objectContaining({
        id: proposal!.id,
        kind: "change_shipping_address",
        amountMinor: null,
        hash: proposal!.hash,
      }),
    ]);
    expect(trace.proposals[0]!.fields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: "order", after: number }),
        expect.objectContaining({ key: "line1", after: "Calle de Alcalá 70", changed: true }),
      ]),
    );
    expect(trace.steps.find((s) => s.action === "tool:prepare_address_change")).toMatchObject({ stage: "proposal" });
    // Another tenant's auditor finds nothing of it.
    const foreign = await actorFor(staffOf(US, "auditor").email);
    expect((await getAuditTrace(foreign, traceId)).proposals).toEqual([]);
  });
});

describe("evidence", () => {
  it("an executed address change's pack verifies offline: the hashed before → after, the approval, the shop's reference", async () => {
    const number = await freshOrder();
    const { proposal, outcome } = await prepare(number, madrid("Calle de Alcalá 80"));
    await customerConfirms(proposal!, outcome);
    await runJobsOnce();
    const ex = await db().execution.findUniqueOrThrow({ where: { proposalId: proposal!.id } });
    expect(ex.status).toBe(executionStatus.succeeded);
    const auditor = await actorFor(staffOf(ES, "auditor").email);
    await integratePending(); // the sequencer's batch (it runs in the app; here, once)
    const { body } = await buildEvidencePack(auditor, proposal!.id);
    const verdict = await verifyEvidencePack(body, { publicKey: auditPublicKey().publicKey });
    expect(verdict.checks.filter((c) => !c.ok)).toEqual([]);
    const pack = JSON.parse(body) as {
      proposal: { hash: string; canonicalJson: string };
      approvals: { approverId: string; proposalHash: string }[];
      execution: { idempotencyKey: string; actionReference?: string; status: string };
    };
    expect(pack.proposal.hash).toBe(proposal!.hash);
    const canonical = JSON.parse(pack.proposal.canonicalJson) as {
      kind: string;
      params: { after: { line1: string }; order: { number: string } };
    };
    expect(canonical).toMatchObject({
      kind: "change_shipping_address",
      params: { after: { line1: "Calle de Alcalá 80" }, order: { number } },
    });
    // Within the country the customer alone confirmed it: their confirmation is the pack's authority.
    expect(pack.approvals).toEqual([]);
    expect((JSON.parse(body) as { customerConfirmations: unknown[] }).customerConfirmations).toEqual([
      expect.objectContaining({ decision: "confirmed", proposalHash: proposal!.hash }),
    ]);
    expect(pack.execution).toMatchObject({
      status: executionStatus.succeeded,
      idempotencyKey: `change_shipping_address-${proposal!.id}`,
      actionReference: ex.actionReference,
    });
    // A pack whose hashed address was edited no longer verifies.
    const forged = body.replace("Calle de Alcalá 80", "Calle de Alcalá 81");
    expect((await verifyEvidencePack(forged, { publicKey: auditPublicKey().publicKey })).ok).toBe(false);
  });
});
