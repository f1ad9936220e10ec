// Stripe as the truth (docs/systems-of-record.md), through the real sandbox provider process and the official
// stripe package: an order pushed through the Orders API is refunded by an agent with the server-derived amount;
// a refund made at the provider before prepare lowers the amount (and the hash v3 snapshot says so); one made
// after approval stops the execution and the provider's total refunded never exceeds the capture; the provider
// down at prepare answers temporarily_unavailable with retry_after_seconds.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recomputeProposalHash } from "@/lib/domain/proposal-hash";
import { db } from "@/lib/server/db/client";
import { executeRefund } from "@/lib/server/executions/execute-refund";
import { issueIntegrationKey } from "@/lib/server/integrations/issue-integration-key";
import { getPaymentProvider } from "@/lib/server/payments/get-payment-provider";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import type { SandboxControl } from "@/provider-sandbox/control-client";
import { actorFor, staffOf } from "../support/actors";
import { startSandboxProvider, type SandboxProvider } from "../support/sandbox-provider";
import { anthropicCall, ES, headersFor, send } from "./gateway-support";
import { pushStripeOrder } from "./pushed-stripe-order";

let sandbox: SandboxProvider;
let control: SandboxControl;
let integrationKey: string;

beforeAll(async () => {
  sandbox = await startSandboxProvider();
  control = sandbox.control;
  process.env.PAYMENT_PROVIDER_LIVE_READS = "1";
  integrationKey = (
    await issueIntegrationKey(await actorFor(staffOf(ES, "admin").email), { label: "shop", scopes: ["orders:write"] })
  ).key;
});
afterAll(async () => {
  process.env.PAYMENT_PROVIDER_LIVE_READS = "0";
  await sandbox?.stop();
});

/** A card payment at the provider (a PaymentIntent the sandbox captured) and the order pushed through the API. */
const pushedStripeOrder = (capturedMinor: number) =>
  pushStripeOrder({ control, integrationKey, capturedMinor, prefix: "sor" });

/** A refund made outside this product: straight at the provider, by anyone holding an API key. */
async function refundElsewhere(pi: string, amountMinor: number) {
  const made = await getPaymentProvider().createRefund({
    paymentIntent: pi,
    amountMinor,
    currency: "EUR",
    idempotencyKey: `elsewhere-${randomUUID()}`,
    metadata: { proposalId: "none", tenantId: "shop-dashboard" },
  });
  expect(made.outcome).toBe("succeeded");
}

const prepare = async (number: string, token: string) =>
  send(anthropicCall("prepare_refund", { order_id: number, reason: "damaged_item" }), headersFor({ token }));
const reviewer = () => actorFor(staffOf(ES, "reviewer").email);

describe("the provider as the truth", () => {
  it("an order pushed through the API is refunded by an agent with the server-derived amount", async () => {
    const o = await pushedStripeOrder(4_200);
    const r = await prepare(o.number, o.token);
    expect(r.content).toMatchObject({
      code: "approval_required",
      result: { amount: { minor: 4_200, currency: "EUR" } },
    });
    const id = String(r.content.result!.proposal_id);
    const p = await db().proposal.findUniqueOrThrow({ where: { id } });
    await approveProposal(await reviewer(), { proposalId: id, hash: p.hash });
    expect(await executeRefund(id)).toBe("sent");
    expect((await db().proposal.findUniqueOrThrow({ where: { id } })).status).toBe("succeeded");
    expect(await control.paymentIntent(o.pi)).toMatchObject({ amount: 4_200, amount_refunded: 4_200 });
  });

  it("a refund made at the provider before prepare lowers the amount, and the hash binds that snapshot", async () => {
    const o = await pushedStripeOrder(12_000);
    await refundElsewhere(o.pi, 5_000);
    const looked = await send(anthropicCall("lookup_order", { order_id: o.number }), headersFor({ token: o.token }));
    expect(looked.content).toMatchObject({
      code: "ok",
      result: { captured: { minor: 12_000 }, refundable: { minor: 7_000 } },
    });
    const r = await prepare(o.number, o.token);
    expect(r.content).toMatchObject({ code: "approval_required", result: { amount: { minor: 7_000 } } });
    const p = await db().proposal.findUniqueOrThrow({ where: { id: String(r.content.result!.proposal_id) } });
    expect(p).toMatchObject({ sourceProvider: "stripe", sourceCapturedMinor: 12_000, sourceRefundedMinor: 5_000 });
    expect(recomputeProposalHash(p)).toBe(p.hash);
    expect(recomputeProposalHash({ ...p, sourceRefundedMinor: 0 })).not.toBe(p.hash);
  });

  it("a refund made after approval stops the execution (refunded elsewhere); the provider never refunds more than it captured", async () => {
    const o = await pushedStripeOrder(10_000);
    const r = await prepare(o.number, o.token);
    const id = String(r.content.result!.proposal_id);
    const p = await db().proposal.findUniqueOrThrow({ where: { id } });
    await approveProposal(await reviewer(), { proposalId: id, hash: p.hash });
    await refundElsewhere(o.pi, 3_000);
    expect(await executeRefund(id)).toBe("revalidation_failed");
    expect(await db().proposal.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: "invalidated",
      invalidationReason: "refunded_elsewhere",
    });
    expect(await db().execution.count({ where: { proposalId: id } })).toBe(0);
    const pi = await control.paymentIntent(o.pi);
    expect(pi.amount_refunded).toBe(3_000);
    expect(pi.amount_refunded).toBeLessThanOrEqual(pi.amount);
    const event = await db().auditEvent.findFirstOrThrow({ where: { proposalId: id, action: "execution:revalidate" } });
    expect(event.data).toMatchObject({ reason: "refunded_elsewhere" });
    // Re-prepare offers what is left now.
    const again = await prepare(o.number, o.token);
    expect(again.content).toMatchObject({ code: "approval_required", result: { amount: { minor: 7_000 } } });
  });

  it("exactly what is left executes: the whole capture, nothing refunded elsewhere, the provider's refunded total equals the capture", async () => {
    const o = await pushedStripeOrder(10_000);
    const r = await prepare(o.number, o.token);
    const id = String(r.content.result!.proposal_id);
    const p = await db().proposal.findUniqueOrThrow({ where: { id } });
    await approveProposal(await reviewer(), { proposalId: id, hash: p.hash });
    expect(await executeRefund(id)).toBe("sent");
    expect(await control.paymentIntent(o.pi)).toMatchObject({ amount_refunded: 10_000 });
  });

  it("the provider not answering at prepare → temporarily_unavailable with retry_after_seconds; no proposal", async () => {
    const o = await pushedStripeOrder(3_000);
    await control.addFault({ kind: "fail_5xx", on: "read", once: false, paymentIntent: o.pi });
    try {
      const r = await prepare(o.number, o.token);
      expect(r.body.is_error).toBe(true);
      expect(r.content).toMatchObject({ code: "temporarily_unavailable", error: { retry_after_seconds: 30 } });
      expect(r.raw).not.toMatch(/sk_test_|stack|at .*\.ts/);
      expect(await db().proposal.count({ where: { order: { number: o.number } } })).toBe(0);
    } finally {
      await control.clearFaults();
    }
    expect((await prepare(o.number, o.token)).content.code).toBe("approval_required");
  });
});
