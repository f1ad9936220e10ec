// The demo's payment provider settings: the sandbox provider (provider-sandbox/) on a loopback port
// with public, demo-only credentials. Production never uses them (lib/server/env.ts refuses them).
export const demoPaymentProvider = {
  /** stripe-mock's customary port, on 127.0.0.1. */
  port: 12111,
  url: "http://127.0.0.1:12111",
  apiKey: "sk_test_demo_sandbox_do_not_use_in_production",
  controlToken: "demo-sandbox-control-token",
  webhookSecret: "whsec_demo_sandbox_do_not_use_in_production",
  /** The sandbox keeps its refunds in its own database, next to the app's on the same server. */
  database: "provider_sandbox",
} as const;
