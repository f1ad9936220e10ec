// Fixtures shared by the integration tests: fresh paid card orders (each test its own, so no test depends on demo
// orders another test may have refunded), optionally with their payment intent at the sandbox provider, and
// proposals the agent prepared for them through the real gateway.
import { expect } from "vitest";
import type { CreatePaymentIntentInput } from "@/provider-sandbox/control";
import type { SandboxControl } from "@/provider-sandbox/control-client";
import { db } from "@/lib/server/db/client";
import { createPaidOrder } from "../../scripts/lib/fixtures";
import { ES, ana, anthropicCall, freshTrace, headersFor, send, tokenFor, webKey } from "./gateway-support";
import { asRefund } from "@/lib/domain/refund-row";

let seq = 0;

/** A fresh paid card order (`<prefix>-…`) of a demo customer, paid by `paymentRef` (default `pi_test_<number>`). */
export async function freshCardOrder(
  amountMinor: number,
  opts: { tenant?: string; customer?: string; prefix?: string; paymentRef?: string; holderName?: string } = {},
): Promise<{ number: string; orderId: string; paymentRef: string }> {
  const t = await db().tenant.findUniqueOrThrow({ where: { slug: opts.tenant ?? ES } });
  const o = await createPaidOrder(db(), t, {
    customerId: opts.customer ?? ana,
    amountMinor,
    prefix: opts.prefix,
    paymentRef: opts.paymentRef,
    holderName: opts.holderName,
  });
  return { number: o.number, orderId: o.orderId, paymentRef: o.paymentRef };
}

/** A fresh paid card order of Ana's (tienda-es, EUR) whose payment intent (`pi_<prefix>_…`) the sandbox knows. */
export async function sandboxCardOrder(
  control: SandboxControl,
  amountMinor: number,
  prefix: string,
  intent: Partial<CreatePaymentIntentInput> = {},
): Promise<{ number: string; orderId: string; pi: string; amountMinor: number }> {
  const pi = `pi_${prefix.toLowerCase()}_${Date.now().toString(36)}_${++seq}`;
  await control.createPaymentIntent({ id: pi, amount: amountMinor, currency: "eur", ...intent });
  const { number, orderId } = await freshCardOrder(amountMinor, { prefix, paymentRef: pi, holderName: "Ana García" });
  return { number, orderId, pi, amountMinor };
}

/** The agent prepares a refund of `orderNumber` through the real gateway; the proposal it got. */
export async function prepareThroughGateway(orderNumber: string, tenant = ES, customer = ana) {
  const a = await send(
    anthropicCall("prepare_refund", { order_id: orderNumber, reason: "damaged_item" }),
    headersFor({ key: webKey(tenant), token: await tokenFor(tenant, customer), trace: freshTrace() }),
  );
  expect(a.content.code).toBe("approval_required");
  return asRefund(
    await db().proposal.findUniqueOrThrow({ where: { id: (a.content.result as { proposal_id: string }).proposal_id } }),
  );
}

export async function preparedForFreshOrder(
  amountMinor: number,
  opts: { tenant?: string; customer?: string; prefix?: string } = {},
) {
  const { number } = await freshCardOrder(amountMinor, opts);
  return { number, proposal: await prepareThroughGateway(number, opts.tenant ?? ES, opts.customer ?? ana) };
}
