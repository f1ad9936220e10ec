// Configuration of the runnable examples (main.ts) from the environment. Get demo values with
// `npm run demo:credentials` (see examples/README.md).
import { randomBytes } from "node:crypto";
import type { GatewayConfig } from "./gateway";

export function configFromEnv(model: string): GatewayConfig {
  const agentKey = process.env.AGENT_KEY;
  if (!agentKey) {
    console.error("Set AGENT_KEY (a web_support agent key) and END_USER_TOKEN (a customer's token): see examples/README.md.");
    process.exit(2);
  }
  return {
    baseUrl: (process.env.GATEWAY_URL ?? "http://localhost:3000").replace(/\/$/, ""),
    agentKey,
    endUserToken: process.env.END_USER_TOKEN,
    traceId: randomBytes(16).toString("hex"),
    model,
    promptVersion: "examples-1",
  };
}

export function requireEnv(name: string): void {
  if (!process.env[name]) {
    console.error(
      `Set ${name} to run this example against the real vendor. Without a key, the same agent runs against a scripted model in tests/integration/examples.test.ts.`,
    );
    process.exit(2);
  }
}

export const userMessage = () => process.argv.slice(2).join(" ") || "My order ORD-1001 arrived broken. I'd like a refund, please.";
