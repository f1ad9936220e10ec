import "server-only";
import { paymentProviderConfig } from "@/lib/server/env";
import { log } from "@/lib/server/log";
import { tracedProvider } from "@/lib/server/telemetry/traced-provider";
import type { PaymentProvider } from "./payment-provider";
import { createStripePaymentProvider } from "./stripe-provider";

// The application's payment provider, configured from the environment on first use. This is the
// only payment code path: the execution worker, the reconciler and the provider webhook route all
// take it from here.

let instance: PaymentProvider | null = null;

export function getPaymentProvider(): PaymentProvider {
  instance ??= tracedProvider(
    createStripePaymentProvider({
      ...paymentProviderConfig(),
      onWarning: (message, details) => log.error({ ...details, component: "payment-provider" }, message),
    }),
    "stripe",
  );
  return instance;
}

/** Forget the configured instance (tests that change the provider's environment). */
export function resetPaymentProvider(): void {
  instance = null;
}
