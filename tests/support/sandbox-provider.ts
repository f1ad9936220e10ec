// The sandbox payment provider in its own process for an integration test file: its own database on the
// test server, fresh API key and control token, the app's payment env pointing at it (1.5 s timeout,
// stale "sending" at once). Started in beforeAll, stopped in afterAll.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { inject } from "vitest";
import { sandboxControl, type SandboxControl } from "@/provider-sandbox/control-client";
import { resetPaymentProvider } from "@/lib/server/payments/get-payment-provider";
import { findFreePort } from "../../scripts/lib/embedded-postgres";

export type SandboxProvider = {
  control: SandboxControl;
  /** The sandbox's own database (for tests that look at what the provider recorded). */
  databaseUrl: string;
  stop: () => Promise<void>;
};

/** `webhook`: where the sandbox posts its webhooks and with which secret (also given to the app). */
export async function startSandboxProvider(
  opts: { webhook?: { url: string; secret: string }; extraArgs?: string[] } = {},
): Promise<SandboxProvider> {
  const apiKey = `sk_test_${randomUUID().replace(/-/g, "")}`;
  const controlToken = `ctl_${randomUUID()}`;
  const databaseUrl = inject("serverUrl").replace(
    /\/postgres$/,
    `/provider_sandbox_${randomUUID().replace(/-/g, "").slice(0, 12)}`,
  );
  const port = await findFreePort();
  const webhookArgs = opts.webhook ? ["--webhook-url", opts.webhook.url, "--webhook-secret", opts.webhook.secret] : [];
  const sandbox = spawn(
    process.execPath,
    [
      "--conditions=react-server",
      "--import",
      "tsx",
      "scripts/provider-sandbox.ts",
      "--port",
      String(port),
      "--database-url",
      databaseUrl,
      "--api-key",
      apiKey,
      "--control-token",
      controlToken,
      ...webhookArgs,
      ...(opts.extraArgs ?? []),
    ],
    { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, DATABASE_URL: "" } },
  );
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`sandbox did not start:\n${output}`)), 30_000);
    sandbox.stdout.on("data", (c: Buffer) => {
      output += c.toString();
      if (output.includes("listening on")) {
        clearTimeout(timer);
        resolve();
      }
    });
    sandbox.stderr.on("data", (c: Buffer) => (output += c.toString()));
  });
  process.env.PAYMENT_PROVIDER_URL = `http://127.0.0.1:${port}`;
  process.env.PAYMENT_PROVIDER_API_KEY = apiKey;
  if (opts.webhook) process.env.PAYMENT_PROVIDER_WEBHOOK_SECRET = opts.webhook.secret;
  process.env.PAYMENT_PROVIDER_TIMEOUT_MS = "1500";
  process.env.EXECUTION_STALE_SENDING_MS = "0";
  resetPaymentProvider();
  return {
    control: sandboxControl(`http://127.0.0.1:${port}`, controlToken),
    databaseUrl,
    stop: async () => {
      const exited = new Promise((r) => sandbox.once("exit", r));
      sandbox.kill("SIGTERM");
      await exited;
    },
  };
}
