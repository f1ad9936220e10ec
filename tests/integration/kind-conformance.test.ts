// The conformance suite of the action kinds (issue #37, docs/action-kinds.md): every kind registered in
// lib/actions/registry.ts goes through the same cases, written once — the happy path bound to the hash, another
// tenant's and another customer's subject, a derived value supplied by the model, the subject changed between
// prepare and approval, expiry, concurrent prepares, the effect's answer lost after it committed (in doubt →
// reconciled, never two effects), and the status tool every kind shares. What differs per kind is its driver
// (tests/support/kind-drivers.ts). Everything is real: the database, the gateway (executeToolCall), the approval,
// execute and reconcile use cases, and each kind's external system in its own process.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { actionKindNames } from "@/lib/actions/registry";
import { executionStatus as E } from "@/lib/domain/execution-state";
import { storedProposalIntact } from "@/lib/domain/proposal-hash";
import { proposalStatus as P } from "@/lib/domain/proposal-state";
import { authenticateAgentKey, type AgentCaller } from "@/lib/server/agent/authenticate-agent-key";
import { executeToolCall } from "@/lib/server/agent/execute-tool-call";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";
import { sqlPool } from "@/lib/server/db/pg";
import { sql } from "@/lib/server/db/sql";
import { executeApprovedProposal, reconcileAnyExecution } from "@/lib/server/executions/run-execution";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import { recordCustomerDecision } from "@/lib/server/confirmations/record-customer-decision";
import { needsCustomer, needsReviewers } from "@/lib/domain/confirmation-policy";
import { stopProposalChanges } from "@/lib/server/realtime/proposal-changes";
import { actorFor, staffOf } from "../support/actors";
import { kindDrivers, type KindDriver, type KindSubject } from "../support/kind-drivers";
import { refusal } from "../support/refusal";
import { runJobsOnce } from "../support/run-jobs-once";
import { ES, US, ana, pablo, tokenFor, webKey } from "./gateway-support";

const drivers = kindDrivers();
const callers: Record<string, AgentCaller> = {};
let reviewer: Actor;
let seq = 0;

beforeAll(async () => {
  // Each kind's external system starts once for the file, side by side.
  await Promise.all(actionKindNames.filter((k) => drivers[k]).map((k) => drivers[k]!.start()));
  for (const tenant of [ES, US]) {
    // Every kind's cases prepare as ana within a minute: the per-window budgets are not what this file is about.
    const { id: tenantId } = await db().tenant.findUniqueOrThrow({ where: { slug: tenant } });
    const unlimited = { maxCallsPerKeyPerWindow: 1_000_000, maxCallsPerEndUserPerWindow: 1_000_000 };
    await db().agentBudgetPolicy.upsert({ where: { tenantId }, create: { tenantId, ...unlimited }, update: unlimited });
    const auth = await authenticateAgentKey(`Bearer ${webKey(tenant)}`);
    if (!auth.ok) throw new Error(`demo agent key of ${tenant} refused`);
    callers[tenant] = auth.caller;
  }
  // The other tenant has a customer whose id is ana's (each shop numbers its own customers): only the tenant
  // tells her orders apart from ana's.
  const us = await db().tenant.findUniqueOrThrow({ where: { slug: US } });
  await db().customer.create({ data: { id: ana, tenantId: us.id, name: "Ana García", email: "ana@shop-us.test" } });
  reviewer = await actorFor(staffOf(ES, "reviewer").email);
});

afterAll(async () => {
  await stopProposalChanges();
  await Promise.all(Object.values(drivers).map((d) => d.stop()));
});

/** One tool call through the gateway, as `customer` signed in on `tenant`'s web channel, in a conversation of its own. */
async function call(tenant: string, customer: string, tool: string, args: unknown, token?: string) {
  return executeToolCall(
    callers[tenant]!,
    {
      traceId: `conf-${Date.now().toString(36)}-${++seq}`,
      transport: "anthropic",
      callId: `toolu_conf_${seq}`,
      endUserToken: token ?? (await tokenFor(tenant, customer)),
      model: null,
      promptVersion: null,
    },
    tool,
    args,
  );
}

/** A success answer's result (a failure has none: the test fails on it). */
function resultOf(outcome: { code: string }): Record<string, unknown> {
  if (!("result" in outcome)) throw new Error(`expected a result, got ${JSON.stringify(outcome)}`);
  return outcome.result as Record<string, unknown>;
}

const actionStatus = (proposalId: string, tenant = ES, customer = ana) =>
  call(tenant, customer, "get_action_status", { proposal_id: proposalId, wait_seconds: null });
const proposalRow = (id: string) => db().proposal.findUniqueOrThrow({ where: { id } });

describe("the registry and the drivers", () => {
  it("every registered kind has a conformance driver, and no driver is for a kind not registered", () => {
    expect(Object.keys(drivers).sort()).toEqual([...actionKindNames].sort());
  });
});

describe.each(actionKindNames)("kind %s", (kind) => {
  const d: KindDriver | undefined = drivers[kind];
  if (!d) return; // failed above: a registered kind without a driver

  /** The proposals of this kind made for the subject, whatever their state or tenant. */
  const proposalsFor = (s: KindSubject) =>
    db().proposal.findMany({
      where: {
        kind,
        AND: [
          { subject: { path: ["type"], equals: d.proposalSubject(s).type } },
          { subject: { path: ["ref"], equals: d.proposalSubject(s).ref } },
        ],
        // A customer's subject outlives one case: only the proposals made since this subject was.
        ...(s.since ? { createdAt: { gte: s.since } } : {}),
      },
    });
  const prepare = (s: KindSubject, args: Record<string, unknown> = d.prepareArgs(s), tenant = ES, customer = ana) =>
    call(tenant, customer, d.prepareTool, args);
  /** A fresh subject of ana's and its pending proposal, prepared through the gateway. */
  async function prepared() {
    const s = await d!.freshSubject(ES, ana);
    const answer = await prepare(s);
    expect(answer.outcome.code).toBe("approval_required");
    const result = resultOf(answer.outcome);
    return { s, id: String(result.proposal_id), hash: String(result.hash), result };
  }

  /**
   * Every consent the proposal's hashed policy asks for (docs/action-kinds.md, "Who confirms"): a reviewer's approval
   * unless the customer alone confirms, and the customer's confirmation on the link the prepare answer carried when
   * they must confirm. Answers the proposal's status after the last one.
   */
  async function consent(id: string, hash: string, result: Record<string, unknown>) {
    const { confirmation } = await proposalRow(id);
    let status: string = P.pendingApproval;
    if (needsReviewers(confirmation)) status = (await approveProposal(reviewer, { proposalId: id, hash })).status;
    if (needsCustomer(confirmation)) {
      const token = String(result.confirm_url).split("/confirm/")[1]!;
      const answer = await recordCustomerDecision(
        token,
        { proposal_id: id, hash, decision: "confirm", reason: null },
        null,
      );
      if (!answer.ok) throw new Error(`the customer's confirmation was refused: ${answer.code}`);
      status = answer.status;
    }
    return { status };
  }

  beforeEach(async () => {
    await d.clearFaults();
  });

  it("happy path: prepare → approval_required with the hash; only the exact hash approves; executed once", async () => {
    const { s, id, hash, result } = await prepared();
    const row = await proposalRow(id);
    expect(row).toMatchObject({ kind, status: P.pendingApproval, hash, subject: d.proposalSubject(s) });
    expect(storedProposalIntact(row)).toBe(true);
    // Approving what one was not shown (another hash) is refused and changes nothing.
    expect(await refusal(approveProposal(reviewer, { proposalId: id, hash: "0".repeat(64) }))).toMatchObject({
      code: "invalid_arguments",
      reason: "hash_mismatch",
    });
    expect((await proposalRow(id)).status).toBe(P.pendingApproval);
    await runJobsOnce();
    expect(await d.effects(s)).toBe(0);

    expect(await consent(id, hash, result)).toMatchObject({ status: P.approved });
    await runJobsOnce();
    expect(await db().execution.findUniqueOrThrow({ where: { proposalId: id } })).toMatchObject({
      status: E.succeeded,
      attempts: 1,
    });
    expect((await proposalRow(id)).status).toBe(P.succeeded);
    expect(await d.effects(s)).toBe(1);
    expect(await d.ourCopyFollows(s)).toBe(true);
    expect((await actionStatus(id)).outcome).toMatchObject({
      code: "ok",
      result: { proposal_id: id, kind, status: P.succeeded },
    });
    // The job run again (a retry, a second worker) does not act twice.
    expect(await executeApprovedProposal(id)).toBe("already_started");
    expect(await d.effects(s)).toBe(1);
  });

  // Not for a kind whose subject is the signed-in customer (`subjectIsCustomer`): the model names no subject, so there is
  // no other one to name; its tenant and customer scope is its own file's (contact-change.test.ts). Nor for a subject
  // that is no customer's (`noCustomerSubject`, the reason given by the driver: a bulk message's segment).
  it.skipIf(d.subjectIsCustomer || !!d.noCustomerSubject)(
    "another tenant's subject and another customer's subject are not found, like one that does not exist; no proposal",
    async () => {
      // Another tenant's order of a customer with ana's very id: only the tenant scope refuses it.
      const foreignTenant = await d.freshSubject(US, ana);
      // Another customer's order in ana's own tenant.
      const foreignCustomer = await d.freshSubject(ES, pablo);
      const missing = { ...foreignCustomer, number: `ORD-NOPE-${++seq}` };
      const missingAnswer = (await prepare(missing)).outcome;
      expect(missingAnswer).toMatchObject({ code: "not_found" });
      for (const s of [foreignTenant, foreignCustomer]) {
        const { outcome, proposal } = await prepare(s);
        expect(outcome).toMatchObject({ code: "not_found" });
        expect(proposal).toBeFalsy();
        // Indistinguishable from an order that never was: nothing of the order shows through.
        expect(JSON.stringify(outcome).replaceAll(s.number, "X")).toBe(
          JSON.stringify(missingAnswer).replaceAll(missing.number, "X"),
        );
        expect(await proposalsFor(s)).toEqual([]);
      }
      // The subject itself is fine: its own customer prepares it.
      expect((await prepare(foreignCustomer, d.prepareArgs(foreignCustomer), ES, pablo)).outcome.code).toBe(
        "approval_required",
      );
    },
  );

  it("a derived value supplied by the model is refused (invalid_arguments, naming it); no proposal", async () => {
    const s = await d.freshSubject(ES, ana);
    const { name, value } = d.derivedField(s);
    const { outcome, proposal } = await prepare(s, { ...d.prepareArgs(s), [name]: value });
    expect(outcome).toMatchObject({ code: "invalid_arguments", error: { problems: [{ path: `$.${name}` }] } });
    expect(proposal).toBeFalsy();
    expect(await proposalsFor(s)).toEqual([]);
  });

  it("the subject changed between prepare and approval: approval refused (invalidated, with the reason); nothing executed", async () => {
    const { s, id, hash } = await prepared();
    const reason = await d.changeSubject(s);
    expect(await refusal(approveProposal(reviewer, { proposalId: id, hash }))).toMatchObject({ code: "invalidated" });
    expect(await proposalRow(id)).toMatchObject({ status: P.invalidated, invalidationReason: reason });
    await runJobsOnce();
    expect(await db().execution.count({ where: { proposalId: id } })).toBe(0);
    expect(await d.effects(s)).toBe(0);
    expect((await actionStatus(id)).outcome).toMatchObject({ code: "invalidated", error: { kind, reason } });
  });

  it("expiry: once past its expiresAt a proposal cannot be approved, even with its exact hash; it is expired", async () => {
    const { s, id, hash } = await prepared();
    const row = await proposalRow(id);
    // The clock passes the proposal's expiry (the row and its hash untouched: an intact proposal, simply late).
    vi.setSystemTime(new Date(row.expiresAt.getTime() + 1_000));
    let refused;
    try {
      refused = await refusal(approveProposal(reviewer, { proposalId: id, hash }));
    } finally {
      vi.useRealTimers();
    }
    expect(refused).toMatchObject({ code: "expired" });
    expect(await proposalRow(id)).toMatchObject({ status: P.expired, hash });
    await runJobsOnce();
    expect(await db().approval.count({ where: { proposalId: id } })).toBe(0);
    expect(await db().execution.count({ where: { proposalId: id } })).toBe(0);
    expect(await d.effects(s)).toBe(0);
    expect((await actionStatus(id)).outcome).toMatchObject({ code: "expired", error: { kind } });
  });

  it("concurrent prepares of the same action make exactly one pending proposal", async () => {
    const s = await d.freshSubject(ES, ana);
    // Eight conversations at once. Their tokens are minted and the pool's connections opened first, so the calls
    // really overlap at the subject's lock (otherwise the first call, on the one warm connection, commits before the
    // others have even connected, and the case passes without the lock).
    const tokens = await Promise.all(Array.from({ length: 8 }, () => tokenFor(ES, ana)));
    await Promise.all(tokens.map(() => sql`SELECT pg_sleep(0.05)`.execute(sqlPool())));
    const answers = await Promise.all(tokens.map((t) => call(ES, ana, d.prepareTool, d.prepareArgs(s), t)));
    expect(answers.map((a) => a.outcome.code)).toEqual(Array(8).fill("approval_required"));
    expect(new Set(answers.map((a) => a.proposal?.id)).size).toBe(1);
    const rows = await proposalsFor(s);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: answers[0]!.proposal!.id, status: P.pendingApproval });
  });

  it("the effect's answer lost after it committed: in doubt, reconciled by lookup, and still one effect", async () => {
    const { s, id, hash, result } = await prepared();
    await consent(id, hash, result);
    await d.loseNextAnswerAfterCommit(s);
    // The execute job's own function (run-execution.ts), not the worker: the reconcile job it schedules must not
    // run before the in-doubt state is looked at.
    expect(await executeApprovedProposal(id)).toBe("sent");
    const ex = await db().execution.findUniqueOrThrow({ where: { proposalId: id } });
    expect(ex.status).toBe(E.unknown);
    expect((await proposalRow(id)).status).toBe(P.needsReconciliation);
    expect(await d.effects(s)).toBe(1); // the external system did commit it
    expect((await actionStatus(id)).outcome).toMatchObject({
      code: "result_pending",
      result: { kind, status: P.needsReconciliation, phase: "in_doubt" },
    });
    // Executing again is no blind re-send.
    expect(await executeApprovedProposal(id)).toBe("already_started");
    expect(await d.effects(s)).toBe(1);

    expect(await reconcileAnyExecution(ex.id)).toBe("settled");
    expect(await db().execution.findUniqueOrThrow({ where: { id: ex.id } })).toMatchObject({
      status: E.succeeded,
      attempts: 1,
      idempotencyKey: ex.idempotencyKey,
    });
    expect((await proposalRow(id)).status).toBe(P.succeeded);
    expect(await d.ourCopyFollows(s)).toBe(true);
    // Settled: a later reconciliation, or the worker's queued jobs, change nothing and send nothing.
    expect(await reconcileAnyExecution(ex.id)).toBe("already_settled");
    await runJobsOnce();
    expect(await d.effects(s)).toBe(1);
  });

  it.skipIf(!d.deferNextAnswer)(
    "the effect answered pending (queued there): executing, looked up without a re-send, settled once it is done",
    async () => {
      const { s, id, hash, result } = await prepared();
      await consent(id, hash, result);
      await d.deferNextAnswer!(s);
      expect(await executeApprovedProposal(id)).toBe("sent");
      const ex = await db().execution.findUniqueOrThrow({ where: { proposalId: id } });
      expect(ex.status).toBe(E.pending);
      expect((await proposalRow(id)).status).toBe(P.executing);
      expect(await d.ourCopyFollows(s).catch(() => false)).toBe(false);
      expect((await actionStatus(id)).outcome).toMatchObject({ code: "result_pending", result: { kind } });
      // Still queued: the look-up says so; executing again sends nothing.
      expect(await reconcileAnyExecution(ex.id)).toBe("still_pending");
      expect(await executeApprovedProposal(id)).toBe("already_started");

      await d.completeDeferred!(ex.idempotencyKey);
      expect(await reconcileAnyExecution(ex.id)).toBe("settled");
      expect(await db().execution.findUniqueOrThrow({ where: { id: ex.id } })).toMatchObject({
        status: E.succeeded,
        attempts: 1,
      });
      expect((await proposalRow(id)).status).toBe(P.succeeded);
      expect(await d.ourCopyFollows(s)).toBe(true);
      expect(await d.effects(s)).toBe(1);
    },
  );

  it("get_action_status answers the proposal with its kind and the action as prepare told it; not another customer's or tenant's", async () => {
    const { s, id, hash, result } = await prepared();
    const status = resultOf((await actionStatus(id)).outcome);
    expect(status).toMatchObject({ proposal_id: id, kind, status: P.pendingApproval, hash });
    const action = status.action as Record<string, unknown>;
    expect(action).toMatchObject(d.actionNames(s));
    // The action in the words of the prepare answer: every value both name is the same value.
    const shared = Object.keys(action).filter((k) => k in result);
    expect(shared.length).toBeGreaterThan(1);
    for (const k of shared) expect(action[k], k).toEqual(result[k]);
    // Another customer of the tenant, and the other tenant's twin of ana: as missing as an id that never was.
    expect((await actionStatus(id, ES, pablo)).outcome).toMatchObject({ code: "not_found" });
    expect((await actionStatus(id, US, ana)).outcome).toMatchObject({ code: "not_found" });
  });
});
