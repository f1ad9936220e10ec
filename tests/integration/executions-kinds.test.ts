// The ops screens' reads for a kind the shop carries out (issue #37, "execution detail from the registry"), against
// the real database and the real sandbox shop process: an address change executed on the action endpoint is listed
// beside a refund's execution (kind, one-line summary from the hashed params, the shop's reference, no amount), found
// by its order number, opened in detail (the kind's labelled fields, before → after), in doubt in the overview with
// "Check now" settling it through the kind's executor, and invisible to another tenant (the same not-found as none).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ShopControl } from "@/shop-sandbox/control-client";
import { executionStatus as E } from "@/lib/domain/execution-state";
import { authenticateAgentKey, type AgentCaller } from "@/lib/server/agent/authenticate-agent-key";
import { executeToolCall } from "@/lib/server/agent/execute-tool-call";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";
import { sqlPool } from "@/lib/server/db/pg";
import { sql } from "@/lib/server/db/sql";
import { jobKeyPrefix } from "@/lib/server/jobs/job-types";
import { checkExecutionNow } from "@/lib/server/executions/check-execution-now";
import { getExecutionDetail } from "@/lib/server/executions/get-execution-detail";
import { getExecutionOverview } from "@/lib/server/executions/get-execution-overview";
import { listExecutions } from "@/lib/server/executions/list-executions";
import { sweepExecutions } from "@/lib/server/executions/sweep-executions";
import { consentTo } from "../support/consent";
import { actorFor, staffOf } from "../support/actors";
import { refusal } from "../support/refusal";
import { runJobsOnce } from "../support/run-jobs-once";
import {
  ADDRESS_CHANGE_TOOL,
  allowAddressChangeTool,
  copyDemoOrder,
  startShopBehindEndpoint,
} from "../support/address-change-shop";
import { executionDetailDto, executionOverviewDto, executionsPageDto } from "@/lib/schemas/execution-dto";
import { approvedProposal } from "./audit-support";
import { ES, US, ana, tokenFor, webKey } from "./gateway-support";

const KIND = "change_shipping_address";
const TOOL = ADDRESS_CHANGE_TOOL;

let stopShop: (() => Promise<void>) | undefined;
let control: ShopControl;
let caller: AgentCaller;
let reviewer: Actor;
let ops: Actor;
let seq = 0;

const madrid = {
  name: "Ana García",
  line1: "Calle de Alcalá 50",
  line2: null,
  city: "Madrid",
  postal_code: "28014",
  region: null,
  country: "es",
};
const madridLine = "Ana García, Calle de Alcalá 50, 28014 Madrid, ES";

/** A fresh unfulfilled order of Ana's, known to the shop too. */
const freshOrder = () => copyDemoOrder("X", control);

/** Prepares the Madrid address for a fresh order through the gateway, approves it, and runs the execute job. */
async function executedAddressChange() {
  const number = await freshOrder();
  const { proposal } = await executeToolCall(
    caller,
    {
      traceId: `exk-${randomUUID()}`,
      transport: "anthropic",
      callId: `toolu_${++seq}`,
      endUserToken: await tokenFor(ES, ana),
      model: null,
      promptVersion: null,
    },
    TOOL,
    { order_id: number, new_address: madrid },
  );
  if (!proposal) throw new Error("no proposal");
  // Within the country the customer alone confirms an address change (docs/action-kinds.md, "Who confirms").
  await consentTo(reviewer, proposal);
  await runJobsOnce();
  const execution = await db().execution.findUniqueOrThrow({ where: { proposalId: proposal.id } });
  return { number, proposal, execution };
}

/** What the browser receives: the answer through JSON, as the route handler sends it. */
const wire = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

let kindRun: Awaited<ReturnType<typeof executedAddressChange>>;
let refundExecutionId: string;

beforeAll(async () => {
  ({ control, stop: stopShop } = await startShopBehindEndpoint(ES));
  await allowAddressChangeTool([ES]);
  const es = await authenticateAgentKey(`Bearer ${webKey(ES)}`);
  if (!es.ok) throw new Error("demo agent key refused");
  caller = es.caller;
  reviewer = await actorFor(staffOf(ES, "reviewer").email);
  ops = await actorFor(staffOf(ES, "ops").email);

  // A refund's execution (settled at the provider) and, after it, an address change executed at the shop.
  const { proposal: refund } = await approvedProposal(ana, 1_234);
  refundExecutionId = (
    await db().execution.create({
      data: {
        tenantId: refund.tenantId,
        proposalId: refund.id,
        idempotencyKey: `refund-${refund.id}`,
        attempts: 1,
        status: E.succeeded,
        providerRefundId: `re_kinds_${refund.id.slice(0, 8)}`,
        createdAt: new Date(Date.now() - 60_000),
        settledAt: new Date(Date.now() - 30_000),
      },
    })
  ).id;
  kindRun = await executedAddressChange();
});

afterAll(async () => {
  await stopShop?.();
});

describe("the executions list with a kind's execution", () => {
  it("lists the address change beside the refund: kind, summary from the hashed params, the shop's reference, no amount", async () => {
    expect(kindRun.execution).toMatchObject({ status: E.succeeded, idempotencyKey: `${KIND}-${kindRun.proposal.id}` });
    const page = await listExecutions(ops, {});
    const kindRow = page.rows.find((r) => r.id === kindRun.execution.id);
    const refundRow = page.rows.find((r) => r.id === refundExecutionId);
    expect(kindRow).toMatchObject({
      kind: KIND,
      summary: madridLine,
      orderNumber: kindRun.number,
      amountMinor: null,
      currency: null,
      providerRefundId: null,
      actionReference: expect.stringMatching(/^adr_/),
      status: E.succeeded,
      idempotencyKey: `${KIND}-${kindRun.proposal.id}`,
    });
    expect(kindRow!.actionReference).toBe(kindRun.execution.actionReference);
    // The hashed params (the addresses) give the summary and never travel themselves.
    expect(kindRow).not.toHaveProperty("params");
    expect(executionsPageDto.parse(wire(page))).toEqual(wire(page));
    expect(refundRow).toMatchObject({
      kind: "refund",
      summary: null,
      amountMinor: 1_234,
      currency: "EUR",
      providerRefundId: expect.stringMatching(/^re_kinds_/),
      actionReference: null,
    });
  });

  it("finds the address change by its order number (part of it, any case), and by its idempotency key", async () => {
    const byOrder = await listExecutions(ops, { q: kindRun.number.slice(4).toLowerCase() });
    expect(byOrder.rows.map((r) => r.id)).toEqual([kindRun.execution.id]);
    const byKey = await listExecutions(ops, { q: kindRun.execution.idempotencyKey.toUpperCase() });
    expect(byKey.rows.map((r) => r.id)).toEqual([kindRun.execution.id]);
  });

  it("another tenant's list does not have it", async () => {
    const usOps = await actorFor(staffOf(US, "ops").email);
    expect((await listExecutions(usOps, { q: kindRun.number })).rows).toEqual([]);
  });
});

describe("the detail of a kind's execution", () => {
  it("shows the kind's labelled fields, before → after, from the hashed params; no amount or recipient", async () => {
    const d = await getExecutionDetail(ops, { executionId: kindRun.execution.id });
    expect(d).toMatchObject({
      id: kindRun.execution.id,
      kind: KIND,
      summary: madridLine,
      amountMinor: null,
      currency: null,
      actionReference: kindRun.execution.actionReference,
      orderNumber: kindRun.number,
      payout: null,
      proposal: {
        id: kindRun.proposal.id,
        hash: kindRun.proposal.hash,
        orderNumber: kindRun.number,
        customerId: ana,
        amountMinor: null,
        currency: null,
        recipientDisplay: null,
      },
    });
    const fields = Object.fromEntries(d.proposal.fields.map((f) => [f.key, f]));
    expect(fields.order).toMatchObject({ before: null, after: kindRun.number, changed: false });
    expect(fields.line1).toMatchObject({ after: "Calle de Alcalá 50", changed: true });
    expect(fields.country).toMatchObject({ after: "ES" });
    // The before is what was hashed (the address on record at prepare), not today's order row (now the new one).
    const params = (await db().proposal.findUniqueOrThrow({ where: { id: kindRun.proposal.id } })).params as {
      before: { line1: string };
    };
    expect(fields.line1!.before).toBe(params.before.line1);
    expect(fields.line1!.before).not.toBe("Calle de Alcalá 50");
    expect(d.events.map((e) => e.action)).toContain("execution:send");
    expect(d).not.toHaveProperty("params");
    expect(executionDetailDto.parse(wire(d))).toEqual(wire(d));
  });

  it("a refund's detail keeps its amount and recipient, and no fields", async () => {
    const d = await getExecutionDetail(ops, { executionId: refundExecutionId });
    expect(d).toMatchObject({
      kind: "refund",
      summary: null,
      amountMinor: 1_234,
      currency: "EUR",
      proposal: { amountMinor: 1_234, currency: "EUR", fields: [] },
    });
    expect(d.proposal.recipientDisplay).toEqual(expect.any(String));
  });

  it("another tenant's ops get the same not-found as for an execution that does not exist", async () => {
    const usOps = await actorFor(staffOf(US, "ops").email);
    const foreign = await refusal(getExecutionDetail(usOps, { executionId: kindRun.execution.id }));
    const missing = await refusal(getExecutionDetail(usOps, { executionId: randomUUID() }));
    expect(foreign).toMatchObject({ code: "not_found" });
    expect(foreign).toEqual(missing);
    expect(await refusal(checkExecutionNow(usOps, { executionId: kindRun.execution.id }))).toMatchObject({
      code: "not_found",
    });
  });
});

describe("a kind's execution in doubt", () => {
  it("is in the overview's in-doubt queue with its summary; Check now settles it through the kind's executor", async () => {
    await control.addFault({ kind: "fail_5xx", once: true });
    const run = await executedAddressChange();
    expect(run.execution.status).toBe(E.unknown);

    const overview = await getExecutionOverview(ops);
    expect(overview.inDoubt.find((r) => r.id === run.execution.id)).toMatchObject({
      why: "unknown",
      kind: KIND,
      summary: madridLine,
      amountMinor: null,
      currency: null,
    });
    expect(overview.counts.unknown).toBeGreaterThanOrEqual(1);
    expect(executionOverviewDto.parse(wire(overview))).toEqual(wire(overview));

    expect(await checkExecutionNow(ops, { executionId: run.execution.id })).toMatchObject({ queued: true });
    await runJobsOnce();
    const settled = await db().execution.findUniqueOrThrow({ where: { id: run.execution.id } });
    expect(settled).toMatchObject({ status: E.succeeded, attempts: 2, idempotencyKey: run.execution.idempotencyKey });
    expect((await control.actions({ orderNumber: run.number })).data).toHaveLength(1);
    expect((await getExecutionOverview(ops)).inDoubt.map((r) => r.id)).not.toContain(run.execution.id);
  });

  it("the sweep re-enqueues a kind's execution left in doubt, and the reconciler settles it", async () => {
    await control.addFault({ kind: "drop_after_commit", once: true });
    const run = await executedAddressChange();
    expect(run.execution.status).toBe(E.unknown);
    // Its reconcile job lost (a killed worker): only the sweep can find it again.
    const key = jobKeyPrefix("reconcile_execution") + run.execution.id;
    await sql`DELETE FROM graphile_worker._private_jobs WHERE key = ${key}`.execute(sqlPool());
    await sql`UPDATE "Execution" SET "updatedAt" = now() - interval '5 minutes' WHERE id = ${run.execution.id}::uuid`.execute(
      sqlPool(),
    );
    expect((await sweepExecutions()).reconciliations).toBeGreaterThanOrEqual(1);
    await runJobsOnce();
    expect(await db().execution.findUniqueOrThrow({ where: { id: run.execution.id } })).toMatchObject({
      status: E.succeeded,
      attempts: 1,
    });
    expect((await control.actions({ orderNumber: run.number })).data).toHaveLength(1);
  });
});
