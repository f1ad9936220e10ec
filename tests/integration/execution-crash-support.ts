// Real processes for the crash tests (execution-crash.test.ts): the sandbox provider and job workers
// (scripts/worker.ts) spawned as child processes against this file's database, plus the helpers that
// prepare proposals through the real gateway and approve them with the real use case. Copied from the
// setup of execution.test.ts (which keeps its own), without a webhook receiver: here only the
// reconciler may settle an outcome the worker did not record.
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { sandboxControl, type SandboxControl } from "@/provider-sandbox/control-client";
import { db } from "@/lib/server/db/client";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import type { Actor } from "@/lib/server/auth/actor";
import { findFreePort } from "../../scripts/lib/embedded-postgres";
import { demoTenants } from "../../scripts/lib/demo-data";

import { prepareThroughGateway, sandboxCardOrder } from "./proposal-support";
import { actorFor, staffOf } from "../support/actors";

export const API_KEY = `sk_test_${randomUUID().replace(/-/g, "")}`;
const CONTROL_TOKEN = `ctl_${randomUUID()}`;

export type Sandbox = { url: string; control: SandboxControl; stop: () => Promise<void> };

/** Spawns a process and resolves once `ready` appears in its output (rejects if it exits first). */
function spawnUntil(
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: string,
  timeoutMs = 60_000,
): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env,
  });
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args[0]} did not start:\n${output.slice(-4000)}`)), timeoutMs);
    const onData = (c: Buffer) => {
      output += c.toString();
      if (output.length > 200_000) output = output.slice(-100_000);
      if (output.includes(ready)) {
        clearTimeout(timer);
        resolve({ child, output: () => output });
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${args[0]} exited (${code ?? signal}) before it was ready:\n${output.slice(-4000)}`));
    });
  });
}

export async function startSandbox(serverUrl: string): Promise<Sandbox> {
  const port = await findFreePort();
  const database = `provider_sandbox_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
  const { child } = await spawnUntil(
    [
      "scripts/provider-sandbox.ts",
      "--port",
      String(port),
      "--database-url",
      serverUrl.replace(/\/postgres$/, `/${database}`),
      "--api-key",
      API_KEY,
      "--control-token",
      CONTROL_TOKEN,
    ],
    { ...process.env, DATABASE_URL: "" },
    "listening on",
  );
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    control: sandboxControl(url, CONTROL_TOKEN),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

export type Worker = {
  child: ChildProcess;
  pid: number;
  output: () => string;
  kill9: () => Promise<void>;
  stop: () => Promise<void>;
};

/** A real `scripts/worker.ts` process on this file's database, talking to the sandbox. */
export async function startWorker(sandboxUrl: string, env: Record<string, string> = {}): Promise<Worker> {
  const { child, output } = await spawnUntil(
    ["scripts/worker.ts"],
    {
      ...process.env,
      APP_MODE: "demo",
      LOG_LEVEL: "info",
      DATABASE_URL: process.env.DATABASE_URL!,
      PAYMENT_PROVIDER_URL: sandboxUrl,
      PAYMENT_PROVIDER_API_KEY: API_KEY,
      PAYMENT_PROVIDER_TIMEOUT_MS: "60000",
      WORKER_CONCURRENCY: "4",
      ...env,
    },
    "worker started",
  );
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  return {
    child,
    pid: child.pid!,
    output,
    kill9: async () => {
      child.kill("SIGKILL");
      await exited;
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

export async function reviewer(n = 0): Promise<Actor> {
  return actorFor(staffOf(demoTenants[0]!.slug, "reviewer", n).email);
}

export type Prepared = { id: string; hash: string; pi: string; orderId: string; amountMinor: number };

/** A fresh order of Ana's whose payment intent the sandbox knows, and a proposal for it prepared by the real gateway (not approved yet). */
export async function preparedProposal(control: SandboxControl, amountMinor = 5_000): Promise<Prepared> {
  const { number, orderId, pi } = await sandboxCardOrder(control, amountMinor, "C");
  const p = await prepareThroughGateway(number);
  return { id: p.id, hash: p.hash, pi, orderId, amountMinor };
}

export const approve = async (p: Prepared, n = 0) =>
  approveProposal(await reviewer(n), { proposalId: p.id, hash: p.hash });

/** Polls until `check` holds (or fails the test after `timeoutMs`). */
export async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 30_000,
  everyMs = 25,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export async function refundsByIntent(control: SandboxControl): Promise<Record<string, number>> {
  const counters = await control.counters();
  return Object.fromEntries(Object.entries(counters.paymentIntents).map(([pi, c]) => [pi, c.refunds]));
}

/** Refunded (succeeded, in our ledger) per order never above what was captured. */
export async function refundedNotAboveCaptured(orderId: string) {
  const order = await db().order.findUniqueOrThrow({ where: { id: orderId } });
  const sum = await db().refund.aggregate({ where: { orderId, status: "succeeded" }, _sum: { amountMinor: true } });
  expect(sum._sum.amountMinor ?? 0).toBeLessThanOrEqual(order.capturedMinor);
}
