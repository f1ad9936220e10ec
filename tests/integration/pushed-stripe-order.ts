// One fixture for the systems-of-record tests: a card payment captured at the sandbox provider (a
// PaymentIntent) and its order pushed through the real Orders API route with an integration key.
import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { PUT as orderPUT } from "@/app/api/v1/orders/[number]/route";
import type { SandboxControl } from "@/provider-sandbox/control-client";
import { ES, tokenFor } from "./gateway-support";

/** `account`: the sandbox account that holds the payment (default: the sandbox process's own account). */
export async function pushStripeOrder(opts: {
  control: SandboxControl;
  integrationKey: string;
  capturedMinor: number;
  prefix: string;
  account?: string;
}) {
  const { control, integrationKey, capturedMinor, prefix, account } = opts;
  const id = () => randomUUID().replace(/-/g, "");
  const pi = `pi_${prefix}_${id().slice(0, 20)}`;
  await control.createPaymentIntent({
    id: pi,
    amount: capturedMinor,
    currency: "eur",
    ...(account ? { account } : {}),
  });
  const number = `${prefix.toUpperCase()}-${randomUUID().slice(0, 8)}`;
  const customer = `cus_${prefix}_${id().slice(0, 12)}`;
  const res = await orderPUT(
    new Request(`http://localhost/api/v1/orders/${number}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${integrationKey}`, "content-type": "application/json" },
      body: JSON.stringify({
        customer: { id: customer, email: `${prefix}@example.com`, name: "Sam Ortega" },
        currency: "EUR",
        total_minor: capturedMinor,
        status: "paid",
        placed_at: "2026-11-30T10:00:00Z",
        payments: [
          {
            provider: "stripe",
            reference: pi,
            method: "card",
            captured_minor: capturedMinor,
            holder: "Sam Ortega",
            display: "Visa •••• 4242",
          },
        ],
      }),
    }),
    { params: Promise.resolve({ number }) },
  );
  expect(res.status).toBe(201);
  return { pi, number, customer, token: await tokenFor(ES, customer) };
}
