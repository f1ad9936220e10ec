// Execute exactly once, against the real sandbox provider process and the real database: proposals are
// prepared by the real gateway handler, approved by the real use case, executed and reconciled by the
// real job handlers, settled by the real webhook route.
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SandboxControl } from "@/provider-sandbox/control-client";
import { startSandboxProvider, type SandboxProvider } from "../support/sandbox-provider";
import { db } from "@/lib/server/db/client";
import { sqlPool } from "@/lib/server/db/pg";
import { withPgClient } from "@/lib/server/db/pg-client";
import { sql } from "@/lib/server/db/sql";
import { executeRefund } from "@/lib/server/executions/execute-refund";
import { reconcileExecution } from "@/lib/server/executions/reconcile-execution";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import { POST as webhookPOST } from "@/app/api/payments/webhook/route";
import { actorFor, staffOf } from "../support/actors";
import { ES, ana, anthropicCall, headersFor, send, tokenFor, webKey } from "./gateway-support";
import { prepareThroughGateway, sandboxCardOrder } from "./proposal-support";

const WEBHOOK_SECRET = `whsec_${randomUUID().replace(/-/g, "")}`;
let sandbox: SandboxProvider;
let control: SandboxControl;
let receiver: Server;
/** Payment intents whose webhooks the receiver swallows, so a test sees the reconciler (not a webhook) settle. */
const muted = new Set<string>();

beforeAll(async () => {
  // The webhook receiver forwards to the app's real route handler.
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString();
      if ([...muted].some((pi) => body.includes(pi))) {
        res.writeHead(200).end("{}");
        return;
      }
      void (async () => {
        const response = await webhookPOST(
          new Request("http://localhost/api/payments/webhook", {
            method: "POST",
            headers: req.headers as Record<string, string>,
            body: Buffer.concat(chunks),
          }),
        );
        res.writeHead(response.status, { "content-type": "application/json" }).end(await response.text());
      })();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  sandbox = await startSandboxProvider({
    webhook: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`, secret: WEBHOOK_SECRET },
    extraArgs: ["--webhook-base-delay-ms", "100"],
  });
  control = sandbox.control;
});

afterAll(async () => {
  await sandbox?.stop();
  receiver?.close();
});

const reviewer = () => actorFor(staffOf(ES, "reviewer").email);

/** A fresh order of Ana's, its payment intent known to the sandbox, a proposal for it, approved. */
async function approvedProposal(
  amountMinor = 5_000,
  opts: { refundMode?: "succeed" | "pending_then_fail" | "pending_then_succeed" } = {},
) {
  const { number, orderId, pi } = await sandboxCardOrder(
    control,
    amountMinor,
    "X",
    opts.refundMode ? { refundMode: opts.refundMode, settleDelayMs: 200 } : {},
  );
  const p = await prepareThroughGateway(number);
  await approveProposal(await reviewer(), { proposalId: p.id, hash: p.hash });
  return { id: p.id, pi, orderId, amountMinor };
}

const refundsAt = async (pi: string) => (await control.counters()).paymentIntents[pi]?.refunds ?? 0;
const proposalStatus = async (id: string) => (await db().proposal.findUniqueOrThrow({ where: { id } })).status;
const agentStatus = async (id: string) =>
  (
    await send(
      anthropicCall("get_refund_status", { proposal_id: id }),
      headersFor({ key: webKey(ES), token: await tokenFor(ES, ana) }),
    )
  ).content;

async function refundedNotAboveCaptured(orderId: string) {
  const order = await db().order.findUniqueOrThrow({ where: { id: orderId } });
  const sum = await db().refund.aggregate({ where: { orderId, status: "succeeded" }, _sum: { amountMinor: true } });
  expect(sum._sum.amountMinor ?? 0).toBeLessThanOrEqual(order.capturedMinor);
}

describe("execute", () => {
  it("the final approval enqueues execution; the worker's handler pays once and the agent sees ok", async () => {
    const p = await approvedProposal(4_000);
    const job = await sql<{
      n: bigint;
    }>`SELECT count(*) AS n FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE t.identifier = 'execute_refund' AND j.payload->>'proposalId' = ${p.id}`.execute(
      sqlPool(),
    );
    expect(Number(job.rows[0]!.n)).toBe(1);
    expect(await executeRefund(p.id)).toBe("sent");
    expect(await proposalStatus(p.id)).toBe("succeeded");
    const ex = await db().execution.findUniqueOrThrow({ where: { proposalId: p.id } });
    expect(ex).toMatchObject({ status: "succeeded", attempts: 1, idempotencyKey: `refund-${p.id}` });
    expect(await refundsAt(p.pi)).toBe(1);
    const refund = await db().refund.findFirstOrThrow({ where: { providerRefundId: ex.providerRefundId! } });
    expect(refund).toMatchObject({ status: "succeeded", amountMinor: 4_000 });
    expect(await agentStatus(p.id)).toMatchObject({ code: "ok", result: { status: "succeeded" } });
    // Running the job again (at-least-once delivery) does nothing.
    expect(await executeRefund(p.id)).toBe("already_started");
    expect(await refundsAt(p.pi)).toBe(1);
    await refundedNotAboveCaptured(p.orderId);
  });

  it("an expired approval is not executed; the proposal ends and a new one is needed", async () => {
    const p = await approvedProposal(3_000);
    await db().approval.updateMany({
      where: { proposalId: p.id },
      data: { createdAt: new Date(Date.now() - 2 * 3600_000) },
    });
    expect(await executeRefund(p.id)).toBe("revalidation_failed");
    expect(await proposalStatus(p.id)).toBe("expired");
    expect(await refundsAt(p.pi)).toBe(0);
    expect((await agentStatus(p.id)).code).toBe("expired");
  });

  it("ten concurrent executions of one proposal make a single external effect", async () => {
    const p = await approvedProposal(2_000);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => executeRefund(p.id).catch((e: unknown) => String(e))),
    );
    expect(results.filter((r) => r === "sent")).toHaveLength(1);
    expect(await db().execution.count({ where: { proposalId: p.id } })).toBe(1);
    expect(await refundsAt(p.pi)).toBe(1);
    await refundedNotAboveCaptured(p.orderId);
  });
});

describe("unknown outcomes are reconciled, never blindly retried", () => {
  it("provider timeout (accept then hang) → needs_reconciliation, then settled from the provider's own record", async () => {
    const p = await approvedProposal(2_500);
    muted.add(p.pi);
    await control.addFault({ kind: "accept_then_hang", paymentIntent: p.pi });
    expect(await executeRefund(p.id)).toBe("sent");
    expect(await proposalStatus(p.id)).toBe("needs_reconciliation");
    expect((await db().execution.findUniqueOrThrow({ where: { proposalId: p.id } })).status).toBe("unknown");
    expect((await agentStatus(p.id)).code).toBe("result_pending");
    expect(await refundsAt(p.pi)).toBe(1); // the provider did commit it
    const ex = await db().execution.findUniqueOrThrow({ where: { proposalId: p.id } });
    expect(await reconcileExecution(ex.id)).toBe("settled");
    const after = await db().execution.findUniqueOrThrow({ where: { id: ex.id } });
    expect(after).toMatchObject({ status: "succeeded", attempts: 1 }); // no re-send
    expect(await refundsAt(p.pi)).toBe(1);
    expect(await proposalStatus(p.id)).toBe("succeeded");
    await refundedNotAboveCaptured(p.orderId);
  });

  it("a 5xx that committed nothing → the provider confirms it has no refund → re-sent with the same key", async () => {
    const p = await approvedProposal(2_600);
    await control.addFault({ kind: "fail_5xx", paymentIntent: p.pi });
    await executeRefund(p.id);
    expect(await proposalStatus(p.id)).toBe("needs_reconciliation");
    expect(await refundsAt(p.pi)).toBe(0);
    const ex = await db().execution.findUniqueOrThrow({ where: { proposalId: p.id } });
    expect(await reconcileExecution(ex.id)).toBe("resent");
    const after = await db().execution.findUniqueOrThrow({ where: { id: ex.id } });
    expect(after).toMatchObject({ status: "succeeded", attempts: 2, idempotencyKey: ex.idempotencyKey });
    expect(await refundsAt(p.pi)).toBe(1);
  });

  it("a dropped connection after commit → found by metadata, settled, one refund", async () => {
    const p = await approvedProposal(2_700);
    muted.add(p.pi);
    await control.addFault({ kind: "drop_after_commit", paymentIntent: p.pi });
    await executeRefund(p.id);
    const ex = await db().execution.findUniqueOrThrow({ where: { proposalId: p.id } });
    expect(ex.status).toBe("unknown");
    expect(await reconcileExecution(ex.id)).toBe("settled");
    expect(await refundsAt(p.pi)).toBe(1);
  });

  it("a provider that does not answer the reconciler either: wait and ask again, never send", async () => {
    const p = await approvedProposal(2_800);
    muted.add(p.pi);
    await control.addFault({ kind: "accept_then_hang", paymentIntent: p.pi });
    await executeRefund(p.id);
    await control.addFault({ kind: "fail_5xx", on: "read", paymentIntent: p.pi });
    const ex = await db().execution.findUniqueOrThrow({ where: { proposalId: p.id } });
    await expect(reconcileExecution(ex.id)).rejects.toThrow(/provider did not answer/);
    expect((await db().execution.findUniqueOrThrow({ where: { id: ex.id } })).attempts).toBe(1);
    expect(await reconcileExecution(ex.id)).toBe("settled");
    expect(await refundsAt(p.pi)).toBe(1);
  });

  it("accept-then-hang on 20 executions → all reconciled to succeeded, exactly 20 refunds", async () => {
    const made = [];
    for (let i = 0; i < 20; i++) made.push(await approvedProposal(1_000 + i));
    for (const p of made) {
      muted.add(p.pi);
      await control.addFault({ kind: "accept_then_hang", paymentIntent: p.pi });
    }
    await Promise.all(made.map((p) => executeRefund(p.id)));
    for (const p of made) {
      const ex = await db().execution.findUniqueOrThrow({ where: { proposalId: p.id } });
      expect(ex.status).toBe("unknown");
      expect(await reconcileExecution(ex.id)).toBe("settled");
    }
    for (const p of made) {
      expect(await proposalStatus(p.id)).toBe("succeeded");
      expect(await refundsAt(p.pi)).toBe(1);
    }
  }, 240_000);
});

describe("late outcomes by webhook", () => {
  it("a pending refund that later fails → failed, visible to the agent", async () => {
    const p = await approvedProposal(3_100, { refundMode: "pending_then_fail" });
    await executeRefund(p.id);
    expect(await proposalStatus(p.id)).toBe("executing");
    expect((await agentStatus(p.id)).code).toBe("result_pending");
    await expect.poll(() => proposalStatus(p.id), { timeout: 15_000 }).toBe("failed");
    expect((await db().execution.findUniqueOrThrow({ where: { proposalId: p.id } })).status).toBe("failed");
    expect(await agentStatus(p.id)).toMatchObject({ code: "ok", result: { status: "failed" } });
    const refunds = await db().refund.findMany({ where: { orderId: p.orderId } });
    expect(refunds.map((r) => r.status)).toEqual(["failed"]);
  });

  it("a webhook with a bad signature changes nothing", async () => {
    const res = await webhookPOST(
      new Request("http://localhost/api/payments/webhook", {
        method: "POST",
        headers: { "stripe-signature": "t=1,v1=deadbeef" },
        body: "{}",
      }),
    );
    expect(res.status).toBe(400);
  });
});

// Each of these goes red when its guard is deleted from execute-refund.ts / reconcile-execution.ts.
describe("revalidation before the provider call, and the one idempotency key", () => {
  it("a stored amount LOWERED in the database after approval no longer matches the hash: invalidated, nothing sent", async () => {
    const p = await approvedProposal(4_400);
    await sql`UPDATE "Proposal" SET "amountMinor" = "amountMinor" - 100 WHERE id = ${p.id}::uuid`.execute(sqlPool());
    expect(await executeRefund(p.id)).toBe("revalidation_failed");
    expect(await db().proposal.findUniqueOrThrow({ where: { id: p.id } })).toMatchObject({
      status: "invalidated",
      invalidationReason: "stored_hash_mismatch",
    });
    expect(await db().execution.count({ where: { proposalId: p.id } })).toBe(0);
    expect(await refundsAt(p.pi)).toBe(0);
  });

  it("an approval recorded for another hash does not count: invalidated, nothing sent", async () => {
    const p = await approvedProposal(4_500);
    await sql`UPDATE "Approval" SET "proposalHash" = ${"0".repeat(64)} WHERE "proposalId" = ${p.id}::uuid`.execute(
      sqlPool(),
    );
    expect(await executeRefund(p.id)).toBe("revalidation_failed");
    expect(await db().proposal.findUniqueOrThrow({ where: { id: p.id } })).toMatchObject({
      status: "invalidated",
      invalidationReason: "approvals_not_bound_to_hash",
    });
    expect(await refundsAt(p.pi)).toBe(0);
  });

  it("the reconciler's re-send reaches the provider with the execution's own key (refund-<proposal id>), never a new one", async () => {
    const p = await approvedProposal(2_700);
    await control.addFault({ kind: "fail_5xx", paymentIntent: p.pi });
    await executeRefund(p.id);
    const ex = await db().execution.findUniqueOrThrow({ where: { proposalId: p.id } });
    expect(await reconcileExecution(ex.id)).toBe("resent");
    // What the provider itself recorded: every refund of this payment intent carries the one key.
    await withPgClient(sandbox.databaseUrl, async (sandboxPg) => {
      const keys = await sandboxPg.query<{ idempotency_key: string | null }>(
        "SELECT idempotency_key FROM refunds WHERE payment_intent = $1",
        [p.pi],
      );
      expect(keys.rows.map((r) => r.idempotency_key)).toEqual([`refund-${p.id}`]);
    });
  });
});
