import { afterEach, describe, expect, it, vi } from "vitest";
import { demoPaymentProvider } from "@/lib/config/demo-payment-provider";

// paymentProviderConfig() lives in lib/server/env.ts, which decides demo mode when it loads.
const saved = { ...process.env };
async function load(env: Record<string, string | undefined>) {
  for (const key of Object.keys(process.env))
    if (key.startsWith("PAYMENT_PROVIDER_") || key === "APP_MODE") delete process.env[key];
  Object.assign(process.env, env);
  vi.resetModules();
  return (await import("@/lib/server/env")).paymentProviderConfig;
}
afterEach(() => {
  process.env = { ...saved };
});

describe("paymentProviderConfig", () => {
  it("demo mode points at the sandbox with its public credentials", async () => {
    const config = (await load({ APP_MODE: "demo" }))();
    expect(config).toEqual({
      apiKey: demoPaymentProvider.apiKey,
      webhookSecret: demoPaymentProvider.webhookSecret,
      timeoutMs: 10_000,
      protocol: "http",
      host: "127.0.0.1",
      port: 12111,
    });
  });

  it("production needs a key, refuses the demo values, and defaults to Stripe itself", async () => {
    await expect(load({}).then((f) => f())).rejects.toThrow(/PAYMENT_PROVIDER_API_KEY/);
    await expect(load({ PAYMENT_PROVIDER_API_KEY: demoPaymentProvider.apiKey }).then((f) => f())).rejects.toThrow(
      /demo/,
    );
    const config = (await load({ PAYMENT_PROVIDER_API_KEY: "sk_live_x", PAYMENT_PROVIDER_TIMEOUT_MS: "2500" }))();
    expect(config).toEqual({ apiKey: "sk_live_x", webhookSecret: null, timeoutMs: 2_500 });
  });

  it("reads host, port and protocol from PAYMENT_PROVIDER_URL", async () => {
    const config = (
      await load({ PAYMENT_PROVIDER_API_KEY: "sk_test_x", PAYMENT_PROVIDER_URL: "https://stripe.internal.example" })
    )();
    expect(config).toMatchObject({ protocol: "https", host: "stripe.internal.example", port: 443 });
    await expect(
      load({ PAYMENT_PROVIDER_API_KEY: "sk_test_x", PAYMENT_PROVIDER_URL: "ftp://x" }).then((f) => f()),
    ).rejects.toThrow(/http/);
  });
});
