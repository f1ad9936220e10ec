// What the conformance suite (tests/integration/kind-conformance.test.ts) needs to know of each registered action
// kind, and nothing more: how to make a fresh subject in the system of record, the prepare tool and its valid
// arguments, a value the server derives (the model must not be able to supply it), how to change the subject so a
// proposal no longer matches it, how to make the effect's system lose its answer after committing, and how to count
// the effects that system holds. The cases themselves are written once, in the suite.
//
// Each driver starts the real external system its kind's effects go to (the payment sandbox for the refund, the
// sandbox shop behind the tenant's action endpoint for the address change), once per file.
import { randomUUID } from "node:crypto";
import type { ShopControl } from "@/shop-sandbox/control-client";
import type { SandboxControl } from "@/provider-sandbox/control-client";
import { db } from "@/lib/server/db/client";
import { ES, US, ana, pablo } from "../integration/gateway-support";
import { freshCardOrder } from "../integration/proposal-support";
import { addBuyer, segmentOfBuyers } from "./bulk-message-segments";
import { STORE_CREDIT, declareActive, declaredSubjectRef, storeCreditSpec } from "./declared-actions";
import { startSandboxProvider, type SandboxProvider } from "./sandbox-provider";
import {
  ADDRESS_CHANGE_TOOL,
  CANCELLATION_TOOL,
  allowAddressChangeTool,
  allowKindTool,
  startShopBehindEndpoint,
} from "./address-change-shop";

/**
 * A subject made for one test: its tenant and customer, our row's id, the number the model uses. A kind whose subject
 * is the customer (update_customer_contact) has no order: `number` is the customer's id, `value` what it asks for.
 */
export type KindSubject = {
  tenant: string;
  customer: string;
  number: string;
  orderId: string;
  paymentRef: string;
  value?: string;
  /** When the subject was made: a customer's earlier proposals are not this subject's (update_customer_contact). */
  since?: Date;
};

export type KindDriver = {
  kind: string;
  prepareTool: string;
  /** The subject is the customer the token names: the model names none (so there is no foreign one to name). */
  subjectIsCustomer?: boolean;
  /**
   * Why the case "another tenant's and another customer's subject" does not apply (the subject is no customer's, e.g.
   * an admin-declared segment): the kind's own file tests its tenant scope instead.
   */
  noCustomerSubject?: string;
  /** What get_action_status's `action` names the subject by (an order's number, a contact's field). */
  actionNames(s: KindSubject): Record<string, unknown>;
  /** Starts the system the kind's effects go to and points the tenants at it; once per file. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Before each case: no fault left switched on by an earlier one. */
  clearFaults(): Promise<void>;
  /** A fresh order of `customer` in `tenant`, which the kind can act on (known to the external system too). */
  freshSubject(tenant: string, customer: string): Promise<KindSubject>;
  /** Valid arguments of the prepare tool for the subject, as the model would send them. */
  prepareArgs(s: KindSubject): Record<string, unknown>;
  /** The proposal's stored `subject` for it ({type, ref}): where the suite counts the proposals made. */
  proposalSubject(s: KindSubject): { type: string; ref: string };
  /** A field the server derives, with a value the model might make up: strict input must refuse it. */
  derivedField(s: KindSubject): { name: string; value: unknown };
  /** Changes the subject in our copy of the system of record so a proposal no longer matches: the expected reason. */
  changeSubject(s: KindSubject): Promise<string>;
  /** Makes the effect's system commit the next effect on the subject and lose its answer (once). */
  loseNextAnswerAfterCommit(s: KindSubject): Promise<void>;
  /**
   * Makes the external system take the next effect on the subject in and answer `pending` (queued, nothing done yet);
   * `completeDeferred` then carries it out there. Only where the system can answer so (the action endpoint).
   */
  deferNextAnswer?(s: KindSubject): Promise<void>;
  completeDeferred?(idempotencyKey: string): Promise<void>;
  /** How many effects the external system holds for the subject. */
  effects(s: KindSubject): Promise<number>;
  /** Whether our copy of the system of record reflects the effect (after it succeeded). */
  ourCopyFollows(s: KindSubject): Promise<boolean>;
};

let seq = 0;

// ---- refund: the payment provider's chain, against the payment sandbox in its own process ----

function refundDriver(): KindDriver & { payments(): SandboxControl } {
  let sandbox: SandboxProvider | undefined;
  const control = (): SandboxControl => {
    if (!sandbox) throw new Error("the refund driver was not started");
    return sandbox.control;
  };
  return {
    kind: "refund",
    prepareTool: "prepare_refund",
    actionNames: (s) => ({ order_id: s.number }),
    payments: control,
    async start() {
      // No webhook receiver: every settlement here is the executor's or the reconciler's own (as seed-matrix.test).
      sandbox = await startSandboxProvider({
        webhook: { url: "http://127.0.0.1:9/", secret: `whsec_${randomUUID().replace(/-/g, "")}` },
      });
    },
    async stop() {
      await sandbox?.stop();
    },
    clearFaults: async () => void (await control().clearFaults()),
    async freshSubject(tenant, customer) {
      const t = await db().tenant.findUniqueOrThrow({ where: { slug: tenant } });
      const amountMinor = 2_000; // under both tenants' two-reviewer thresholds: one approval
      const pi = `pi_conf_${Date.now().toString(36)}_${++seq}`;
      await control().createPaymentIntent({ id: pi, amount: amountMinor, currency: t.currency.trim().toLowerCase() });
      const o = await freshCardOrder(amountMinor, { tenant, customer, prefix: "K", paymentRef: pi });
      return { tenant, customer, number: o.number, orderId: o.orderId, paymentRef: pi };
    },
    prepareArgs: (s) => ({ order_id: s.number, reason: "damaged_item" }),
    proposalSubject: (s) => ({ type: "order", ref: s.orderId }),
    // The amount is derived from the order and its payment (everything still refundable), never the model's.
    derivedField: () => ({ name: "amount", value: 1 }),
    async changeSubject(s) {
      // The shop cancelled the order meanwhile (as its Orders API would push it).
      await db().order.update({ where: { id: s.orderId }, data: { status: "cancelled" } });
      return "order_cancelled";
    },
    async loseNextAnswerAfterCommit(s) {
      // The provider commits the refund and never answers: the adapter's 1.5 s timeout (sandbox-provider.ts).
      await control().addFault({ kind: "accept_then_hang", paymentIntent: s.paymentRef });
    },
    effects: async (s) => (await control().counters()).paymentIntents[s.paymentRef]?.refunds ?? 0,
    ourCopyFollows: async (s) =>
      (await db().refund.count({ where: { orderId: s.orderId, status: "succeeded", amountMinor: 2_000 } })) === 1,
  };
}

// ---- change_shipping_address: the tenant's action endpoint, served by the sandbox shop in its own process ----

/** The address on record of the orders made here, and the one the customer asks for (as address-change.test). */
const onRecord = {
  name: "Ana García",
  line1: "Calle Mayor 1",
  line2: null,
  city: "Madrid",
  postalCode: "28013",
  region: null,
  country: "ES",
};
const asked = {
  name: "Ana García",
  line1: "Calle de Alcalá 50",
  line2: null,
  city: "Madrid",
  postal_code: "28014",
  region: null,
  country: "ES",
};

function addressChangeDriver(): KindDriver & { shop(): ShopControl } {
  let shop: { control: ShopControl; stop(): Promise<void> } | undefined;
  const control = (): ShopControl => {
    if (!shop) throw new Error("the address-change driver was not started");
    return shop.control;
  };
  return {
    kind: "change_shipping_address",
    prepareTool: ADDRESS_CHANGE_TOOL,
    actionNames: (s) => ({ order_id: s.number }),
    shop: control,
    async start() {
      // As address-change.test: tienda-es's endpoint served by a real shop process; the tool allowed on both
      // tenants' web channel and key.
      shop = await startShopBehindEndpoint(ES);
      await allowAddressChangeTool([ES, US]);
      await allowKindTool([ES, US], CANCELLATION_TOOL);
    },
    async stop() {
      await shop?.stop();
    },
    clearFaults: async () => void (await control().clearFaults()),
    async freshSubject(tenant, customer) {
      const o = await freshCardOrder(2_000, { tenant, customer, prefix: "K" });
      await db().order.update({ where: { id: o.orderId }, data: { shippingAddress: onRecord } });
      // The shop behind tienda-es's endpoint owns fulfilment: it knows the order, unfulfilled.
      if (tenant === ES) await control().setOrder(o.number, { status: "unfulfilled", shippingAddress: onRecord });
      return { tenant, customer, number: o.number, orderId: o.orderId, paymentRef: o.paymentRef };
    },
    prepareArgs: (s) => ({ order_id: s.number, new_address: asked }),
    // The proposal's subject is our order row (the request to the shop names it by its number).
    proposalSubject: (s) => ({ type: "order", ref: s.orderId }),
    // `before` is the address on record, read under the order's lock: the model cannot say what it was.
    derivedField: () => ({ name: "before", value: { ...asked, line1: "Somewhere else 1" } }),
    async changeSubject(s) {
      // The address changed elsewhere (the Orders API) between prepare and approval.
      await db().order.update({
        where: { id: s.orderId },
        data: { shippingAddress: { ...onRecord, line1: "Calle Mayor 3" } },
      });
      return "address_changed";
    },
    async loseNextAnswerAfterCommit(s) {
      // The shop commits the change and the connection drops before it answers. Not a timeout: the action
      // endpoint's POST timeout is a fixed 15 s (lib/server/action-endpoint/client.ts, ACTION_POST_TIMEOUT_MS), too
      // long for this file; the executor treats both alike (unknown → reconcile by GET), as action-endpoint.test shows.
      await control().addFault({ kind: "drop_after_commit", orderNumber: s.number });
    },
    async deferNextAnswer(s) {
      await control().addFault({ kind: "answer_pending", orderNumber: s.number });
    },
    async completeDeferred(key) {
      await control().completeAction(key);
    },
    effects: async (s) => (await control().actions({ orderNumber: s.number })).data.length,
    async ourCopyFollows(s) {
      const order = await db().order.findUniqueOrThrow({ where: { id: s.orderId } });
      const address = order.shippingAddress as { line1?: string; postalCode?: string } | null;
      return address?.line1 === asked.line1 && address.postalCode === asked.postal_code;
    },
  };
}

// ---- cancel_order: step 1 on the tenant's action endpoint (the sandbox shop), step 2 a refund on the payment sandbox ----

/**
 * A tenant has one payment provider and one action endpoint: the cancellation uses those the refund's and the address
 * change's drivers started (it starts nothing of its own). Its effect, for the cases, is the shop's cancellation
 * (step 1); the refund that follows it is cancel-order.test's.
 */
function cancelOrderDriver(refund: ReturnType<typeof refundDriver>, address: ReturnType<typeof addressChangeDriver>) {
  return {
    kind: "cancel_order",
    prepareTool: CANCELLATION_TOOL,
    actionNames: (s) => ({ order_id: s.number }),
    start: async () => undefined,
    stop: async () => undefined,
    clearFaults: async () => void (await address.shop().clearFaults()),
    async freshSubject(tenant, customer) {
      const t = await db().tenant.findUniqueOrThrow({ where: { slug: tenant } });
      const pi = `pi_cxl_${Date.now().toString(36)}_${++seq}`;
      await refund.payments().createPaymentIntent({ id: pi, amount: 2_000, currency: t.currency.trim().toLowerCase() });
      const o = await freshCardOrder(2_000, { tenant, customer, prefix: "C", paymentRef: pi });
      if (tenant === ES) await address.shop().setOrder(o.number, { status: "unfulfilled" });
      return { tenant, customer, number: o.number, orderId: o.orderId, paymentRef: pi };
    },
    prepareArgs: (s) => ({ order_id: s.number, reason: "changed_mind" }),
    proposalSubject: (s) => ({ type: "order", ref: s.orderId }),
    // The refund's amount is derived from the ledger (everything still refundable), never the model's.
    derivedField: () => ({ name: "refund_amount", value: 1 }),
    async changeSubject(s) {
      // The shop shipped it meanwhile (as its Orders API would push it): it can no longer be cancelled.
      await db().order.update({ where: { id: s.orderId }, data: { fulfilment: "shipped" } });
      return "order_shipped";
    },
    async loseNextAnswerAfterCommit(s) {
      await address.shop().addFault({ kind: "drop_after_commit", orderNumber: s.number });
    },
    async deferNextAnswer(s) {
      await address.shop().addFault({ kind: "answer_pending", orderNumber: s.number });
    },
    async completeDeferred(key) {
      await address.shop().completeAction(key);
    },
    effects: async (s) => (await address.shop().actions({ orderNumber: s.number })).data.length,
    async ourCopyFollows(s) {
      const order = await db().order.findUniqueOrThrow({ where: { id: s.orderId } });
      // Step 1 reflected here, and step 2 created under the approval: the refund that goes with it, approved.
      const followUp = await db().proposal.findFirst({
        where: { orderId: s.orderId, kind: "refund", parentId: { not: null } },
      });
      return order.status === "cancelled" && followUp?.amountMinor === 2_000;
    },
  } satisfies KindDriver;
}

// ---- update_customer_contact: the customer the token names, on the tenant's action endpoint (the sandbox shop) ----

/**
 * The subject is the signed-in customer, not an order: a fresh subject is the customer with a fresh e-mail address on
 * record and a fresh one to ask for. Uses the shop the address change's driver started (a tenant has one endpoint).
 */
function contactChangeDriver(address: ReturnType<typeof addressChangeDriver>) {
  const customerRow = async (s: KindSubject) => {
    const t = await db().tenant.findUniqueOrThrow({ where: { slug: s.tenant } });
    return { tenantId_id: { tenantId: t.id, id: s.customer } };
  };
  const fresh = (label: string) => `${label}.${Date.now().toString(36)}${++seq}@example.com`;
  return {
    kind: "update_customer_contact",
    prepareTool: "prepare_contact_change",
    subjectIsCustomer: true,
    actionNames: (s) => ({ customer_id: s.customer, field: "email" }),
    async start() {
      await allowKindTool([ES, US], "prepare_contact_change");
    },
    stop: async () => undefined,
    clearFaults: async () => void (await address.shop().clearFaults()),
    async freshSubject(tenant, customer) {
      const s: KindSubject = {
        tenant,
        customer,
        number: customer,
        orderId: "",
        paymentRef: "",
        value: fresh("new"),
        since: new Date(),
      };
      await db().customer.update({ where: await customerRow(s), data: { email: fresh("on-record") } });
      return s;
    },
    prepareArgs: (s) => ({ field: "email", new_value: s.value }),
    proposalSubject: (s) => ({ type: "customer", ref: s.customer }),
    // The value on record is read under the customer's lock: the model cannot say what it was.
    derivedField: () => ({ name: "before", value: "someone@example.com" }),
    async changeSubject(s) {
      // The shop's back office changed the e-mail address meanwhile (pushed to our copy).
      await db().customer.update({ where: await customerRow(s), data: { email: fresh("elsewhere") } });
      return "email_changed";
    },
    async loseNextAnswerAfterCommit(s) {
      // The fault matches the request's subject ref: here the customer's id.
      await address.shop().addFault({ kind: "drop_after_commit", orderNumber: s.customer });
    },
    async deferNextAnswer(s) {
      await address.shop().addFault({ kind: "answer_pending", orderNumber: s.customer });
    },
    async completeDeferred(key) {
      await address.shop().completeAction(key);
    },
    effects: async (s) =>
      (await address.shop().actions({ orderNumber: s.customer })).data.filter(
        (a) => (a.request as { params?: { after?: string } }).params?.after === s.value,
      ).length,
    ourCopyFollows: async (s) =>
      (await db().customer.findUniqueOrThrow({ where: await customerRow(s) })).email === s.value,
  } satisfies KindDriver;
}

// ---- create_order: a free replacement of a delivered order's items, on the tenant's action endpoint (the sandbox shop) ----

/** The lines of the orders made for the replacement driver (the fixtures' orders have none). */
export const replacementLines = [
  { sku: "MUG-1", name: "Blue mug", quantity: 2, unitMinor: 600 },
  { sku: "TEA-2", name: "Green tea", quantity: 1, unitMinor: 800 },
];

/**
 * A fresh delivered order with two lines and an address on record, known to the shop as delivered. Uses the shop the
 * address change's driver started (a tenant has one endpoint). The effect is the shop's replacement order, whose
 * number lands in the trace.
 */
function replacementOrderDriver(address: ReturnType<typeof addressChangeDriver>) {
  return {
    kind: "create_order",
    prepareTool: "prepare_replacement_order",
    actionNames: (s) => ({ order_id: s.number }),
    async start() {
      await allowKindTool([ES, US], "prepare_replacement_order");
    },
    stop: async () => undefined,
    clearFaults: async () => void (await address.shop().clearFaults()),
    async freshSubject(tenant, customer) {
      const o = await freshCardOrder(2_000, { tenant, customer, prefix: "R" });
      await db().order.update({
        where: { id: o.orderId },
        data: { items: replacementLines, fulfilment: "delivered", shippingAddress: onRecord },
      });
      if (tenant === ES) await address.shop().setOrder(o.number, { status: "delivered", shippingAddress: onRecord });
      return { tenant, customer, number: o.number, orderId: o.orderId, paymentRef: o.paymentRef };
    },
    prepareArgs: (s) => ({ order_id: s.number, items: [{ sku: "MUG-1", quantity: 1 }], reason: "damaged" }),
    proposalSubject: (s) => ({ type: "order", ref: s.orderId }),
    // The replacement goes to the original order's address, read under the order's lock: never the model's.
    derivedField: () => ({ name: "shipping_address", value: asked }),
    async changeSubject(s) {
      // The shop corrected the order's lines meanwhile (pushed by its Orders API): the items no longer match.
      await db().order.update({
        where: { id: s.orderId },
        data: { items: [{ ...replacementLines[0]!, quantity: 1 }, replacementLines[1]!] },
      });
      return "order_changed";
    },
    async loseNextAnswerAfterCommit(s) {
      await address.shop().addFault({ kind: "drop_after_commit", orderNumber: s.number });
    },
    async deferNextAnswer(s) {
      await address.shop().addFault({ kind: "answer_pending", orderNumber: s.number });
    },
    async completeDeferred(key) {
      await address.shop().completeAction(key);
    },
    effects: async (s) =>
      (await address.shop().actions({ orderNumber: s.number })).data.filter((a) => a.kind === "create_order").length,
    async ourCopyFollows(s) {
      // The new order's number (the shop's reference) is in the trace, and the shop holds that order.
      const p = await db().proposal.findFirstOrThrow({
        where: { orderId: s.orderId, kind: "create_order", status: "succeeded" },
        include: { execution: true },
      });
      const reference = p.execution?.actionReference;
      if (!reference) return false;
      const events = await db().auditEvent.findMany({
        where: { traceId: p.traceId, action: "execution:order_created", proposalId: p.id },
      });
      return (
        events.length === 1 &&
        (events[0]!.data as { newOrder?: string }).newOrder === reference &&
        (await address.shop().order(reference)) !== null
      );
    },
  } satisfies KindDriver;
}

// ---- send_bulk_message: a segment's audience, on the tenant's action endpoint (the sandbox shop), in keyed batches ----

/**
 * A fresh subject is a segment (version 1) selecting the buyers of a fresh SKU — here only the subject's customer, so
 * the audience is one recipient and the execution one batch (`<execution key>:batch:0`). `number` is the segment's
 * slug (the agent names it; the request to the shop has it as the subject's ref, which the shop's faults match). Uses
 * the shop the address change's driver started. Its tenant scope is bulk-message.test.ts's.
 */
function bulkMessageDriver(address: ReturnType<typeof addressChangeDriver>) {
  const batches = async (s: KindSubject) =>
    (await address.shop().actions({ orderNumber: s.number })).data.filter((a) => a.kind === "send_bulk_message");
  return {
    kind: "send_bulk_message",
    prepareTool: "prepare_bulk_message",
    noCustomerSubject:
      "a segment is the tenant's, not a customer's: there is no other customer's segment to name (bulk-message.test.ts tests another tenant's)",
    actionNames: (s) => ({ segment: s.number }),
    async start() {
      await allowKindTool([ES, US], "prepare_bulk_message");
      // A send window of the whole day: the executor enforces the window (bulk-message.test.ts tests it with its own
      // clock); the shared cases run on the real one, at any hour.
      for (const slug of [ES, US]) {
        const { id: tenantId } = await db().tenant.findUniqueOrThrow({ where: { slug } });
        const whole = { windowStartHour: 0, windowEndHour: 24 };
        await db().bulkMessagePolicy.upsert({ where: { tenantId }, create: { tenantId, ...whole }, update: whole });
      }
    },
    stop: async () => undefined,
    clearFaults: async () => void (await address.shop().clearFaults()),
    async freshSubject(tenant, customer) {
      const segment = await segmentOfBuyers(tenant, [customer]);
      return { tenant, customer, number: segment.slug, orderId: segment.id, paymentRef: "", value: segment.sku };
    },
    prepareArgs: (s) => ({ segment: s.number, channel: "email", text: "Our summer sale starts tomorrow." }),
    proposalSubject: (s) => ({ type: "segment", ref: s.number }),
    // The audience is computed from the tenant's orders: the model cannot say how many receive it.
    derivedField: () => ({ name: "recipients", value: 3 }),
    async changeSubject(s) {
      // Another customer bought the segment's SKU meanwhile: the audience is no longer the approved one.
      await addBuyer(s.tenant, s.value!, s.customer === pablo ? ana : pablo);
      return "audience_changed";
    },
    async loseNextAnswerAfterCommit(s) {
      await address.shop().addFault({ kind: "drop_after_commit", orderNumber: s.number });
    },
    async deferNextAnswer(s) {
      await address.shop().addFault({ kind: "answer_pending", orderNumber: s.number });
    },
    async completeDeferred(key) {
      // The execution's one batch.
      await address.shop().completeAction(`${key}:batch:0`);
    },
    effects: async (s) => (await batches(s)).length,
    async ourCopyFollows(s) {
      // Every batch recorded as sent, and the trace lists them with the shop's references (what the evidence pack proves).
      const p = await db().proposal.findFirstOrThrow({
        where: { kind: "send_bulk_message", subject: { path: ["ref"], equals: s.number }, status: "succeeded" },
        include: { execution: { include: { bulkMessageBatches: true } } },
      });
      const rows = p.execution?.bulkMessageBatches ?? [];
      const done = await db().auditEvent.findMany({ where: { proposalId: p.id, action: "execution:batches_done" } });
      const listed = (done[0]?.data as { batches?: { reference: string }[] } | undefined)?.batches ?? [];
      const shop = await batches(s);
      return (
        rows.length === 1 &&
        rows.every((b) => b.status === "succeeded") &&
        listed.length === 1 &&
        listed[0]!.reference === rows[0]!.reference &&
        shop.every((a) => a.receipts === 1)
      );
    },
  } satisfies KindDriver;
}

// ---- declared_action: an admin-declared issue_store_credit, derived from and executed on the sandbox shop ----

/**
 * A fresh subject is a fresh order number the shop knows (its buyer and total, which its store-credit quote reads); the
 * proposal's subject is the declared action and its exact input. Declared once per tenant by two admins (stepUp off:
 * the suite's reviewer approves with an open session; declared-actions.test.ts tests the step-up). Uses the shop the
 * address change's driver started.
 */
function declaredActionDriver(address: ReturnType<typeof addressChangeDriver>) {
  const args = (s: KindSubject) => ({ order_id: s.number, reason: "damaged" });
  const ref = (s: KindSubject) => declaredSubjectRef(STORE_CREDIT, args(s));
  const credits = async (s: KindSubject) =>
    (await address.shop().actions({ orderNumber: ref(s) })).data.filter((a) => a.kind === "declared_action");
  return {
    kind: "declared_action",
    prepareTool: STORE_CREDIT,
    noCustomerSubject:
      "the subject is the declared action and its input, answered by the shop's derive: declared-actions.test.ts tests another tenant's declaration",
    actionNames: (s) => ({ action: STORE_CREDIT, input: args(s) }),
    async start() {
      await declareActive(ES, storeCreditSpec());
    },
    stop: async () => undefined,
    clearFaults: async () => void (await address.shop().clearFaults()),
    async freshSubject(tenant, customer) {
      const number = `ORD-D${Date.now().toString(36)}${++seq}`.toUpperCase();
      if (tenant === ES)
        await address.shop().setOrder(number, { customerName: "Ana García", totalMinor: 1_500, currency: "EUR" });
      return { tenant, customer, number, orderId: number, paymentRef: "" };
    },
    prepareArgs: args,
    proposalSubject: (s) => ({ type: "declared_action", ref: ref(s) }),
    // The amount comes from the shop's quote, never the model.
    derivedField: () => ({ name: "amount", value: 1 }),
    async changeSubject(s) {
      // The shop's quote changed meanwhile (its order total was corrected): the derived amount no longer matches.
      await address.shop().setOrder(s.number, { totalMinor: 1_499 });
      return "derived_changed";
    },
    async loseNextAnswerAfterCommit(s) {
      await address.shop().addFault({ kind: "drop_after_commit", orderNumber: ref(s) });
    },
    async deferNextAnswer(s) {
      await address.shop().addFault({ kind: "answer_pending", orderNumber: ref(s) });
    },
    async completeDeferred(key) {
      await address.shop().completeAction(key);
    },
    effects: async (s) => (await credits(s)).filter((a) => a.status === "succeeded").length,
    async ourCopyFollows(s) {
      // Our system of record holds nothing of a declared action: the shop's reference is kept on the execution.
      const p = await db().proposal.findFirst({
        where: { kind: "declared_action", subject: { path: ["ref"], equals: ref(s) }, status: "succeeded" },
        include: { execution: true },
      });
      return !!p?.execution?.actionReference;
    },
  } satisfies KindDriver;
}

/** One driver per registered kind, by kind name (the suite fails for a registered kind without one). */
export function kindDrivers(): Record<string, KindDriver> {
  const refund = refundDriver();
  const address = addressChangeDriver();
  return Object.fromEntries(
    [
      refund,
      address,
      cancelOrderDriver(refund, address),
      contactChangeDriver(address),
      replacementOrderDriver(address),
      bulkMessageDriver(address),
      declaredActionDriver(address),
    ].map((d) => [d.kind, d]),
  );
}
