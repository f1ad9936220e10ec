// Configuration of the runnable examples (main.ts) from the environment. Get demo values with
// `npm run demo:credentials` (see examples/README.md).
import { randomBytes } from "node:crypto";
import type { GatewayConfig } from "./gateway";

export function configFromEnv(model: string): GatewayConfig {
  const agentKey = process.env.AGENT_KEY;
  if (!agentKey) {
    console.error(
      "Set AGENT_KEY (a web_support agent key) and END_USER_TOKEN (a customer's token): see examples/README.md.",
    );
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

/** `--scripted`: the model is the scripted one (examples/shared/scripted-vendor.ts); no vendor key, no vendor network. */
export const isScripted = () => process.argv.includes("--scripted");

/** Without --scripted, the vendor's key must be set. */
export function requireEnv(name: string): void {
  if (!isScripted() && !process.env[name]) {
    console.error(
      `Set ${name} to run this example against the real vendor, or add --scripted to run it against the scripted model (no key needed).`,
    );
    process.exit(2);
  }
}

/** The order the scripted model asks about: the first order reference in the customer's message. */
export const orderIn = (message: string) => /\b[A-Z]{2,}-[A-Za-z0-9_-]*[A-Za-z0-9]/.exec(message)?.[0] ?? "ORD-1001";

/**
 * Default models of the runnable examples (override with ANTHROPIC_MODEL / OPENAI_MODEL / AI_SDK_MODEL). Kept in
 * one place so a model's end of life is one edit: claude-sonnet-4-5 was retired on 2026-11-30.
 */
export const defaultModels = { anthropic: "claude-sonnet-4-6", openai: "gpt-5.4-mini" } as const;

export const userMessage = () =>
  process.argv
    .slice(2)
    .filter((a) => a !== "--scripted")
    .join(" ") || "My order ORD-1001 arrived broken. I'd like a refund, please.";

/** What every runnable example prints: the calls made and their codes, the trace id, the final reply. */
export function printRun(
  traceId: string,
  run: { calls: unknown; stoppedBecause: string | null; nudged: boolean; text: string },
): void {
  console.log(
    JSON.stringify({ traceId, calls: run.calls, stoppedBecause: run.stoppedBecause, nudged: run.nudged }, null, 2),
  );
  console.log(`\n${run.text}`);
}
