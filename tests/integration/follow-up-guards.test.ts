// The follow-up design's guards that cancel-order.test.ts does not reach (docs/action-kinds.md, "Steps"): a follow-up
// is authorised only by a parent of its own tenant (followUpProblem, revalidate-approved.ts); the link between the
// two steps is shown only within one tenant — the proposal pages (action-steps.ts), the ops' execution page
// (get-execution-detail.ts), the agent's get_action_status and the evidence pack's authority; and what the database
// itself refuses (migration 20261206010000_proposal_follow_up): a proposal following itself, a follow-up awaiting a
// review of its own, a second follow-up of one parent. The cross-tenant pairs are forged: a cancellation carried out
// for real (step 1 at the real sandbox shop), its follow-up then moved to another tenant and re-hashed, as someone
// with write access to the table could.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ShopControl } from "@/shop-sandbox/control-client";
import { executionStatus as E } from "@/lib/domain/execution-state";
import { computeProposalHash, hashInputOf, storedProposalIntact } from "@/lib/domain/proposal-hash";
import { proposalStatus as P } from "@/lib/domain/proposal-state";
import { authenticateAgentKey, type AgentCaller } from "@/lib/server/agent/authenticate-agent-key";
import { executeToolCall } from "@/lib/server/agent/execute-tool-call";
import { buildEvidencePack } from "@/lib/server/audit/build-evidence-pack";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";
import { sqlPool } from "@/lib/server/db/pg";
import { sql } from "@/lib/server/db/sql";
import { transaction } from "@/lib/server/db/transaction";
import { approvalProblem } from "@/lib/server/executions/revalidate-approved";
import { getExecutionDetail } from "@/lib/server/executions/get-execution-detail";
import { executeApprovedProposal } from "@/lib/server/executions/run-execution";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import { getKindProposal } from "@/lib/server/proposals/get-kind-proposal";
import { getProposal } from "@/lib/server/proposals/get-proposal";
import { stopProposalChanges } from "@/lib/server/realtime/proposal-changes";
import { createPaidOrder, createProposalRow } from "../../scripts/lib/fixtures";
import { actorFor, staffOf } from "../support/actors";
import { CANCELLATION_TOOL, allowKindTool, startShopBehindEndpoint } from "../support/address-change-shop";
import { ES, US, ana, john, tokenFor, webKey } from "./gateway-support";
import { freshCardOrder } from "./proposal-support";

type Tenant = Awaited<ReturnType<typeof tenantOf>>;
const tenantOf = (slug: string) => db().tenant.findUniqueOrThrow({ where: { slug } });

let stopShop: (() => Promise<void>) | undefined;
let shop: ShopControl;
let esCaller: AgentCaller;
let es: Tenant;
let us: Tenant;
let esReviewer: Actor;
let esOps: Actor;
let usReviewer: Actor;
let usOps: Actor;
let usAuditor: Actor;
let seq = 0;

beforeAll(async () => {
  ({ control: shop, stop: stopShop } = await startShopBehindEndpoint(ES));
  await allowKindTool([ES], CANCELLATION_TOOL);
  const caller = await authenticateAgentKey(`Bearer ${webKey(ES)}`);
  if (!caller.ok) throw new Error("demo agent key refused");
  esCaller = caller.caller;
  [es, us] = await Promise.all([tenantOf(ES), tenantOf(US)]);
  [esReviewer, esOps, usReviewer, usOps, usAuditor] = await Promise.all([
    actorFor(staffOf(ES, "reviewer").email),
    actorFor(staffOf(ES, "ops").email),
    actorFor(staffOf(US, "reviewer").email),
    actorFor(staffOf(US, "ops").email),
    actorFor(staffOf(US, "auditor").email),
  ]);
});

afterAll(async () => {
  await stopProposalChanges();
  await stopShop?.();
});

/** ana's agent calls `tool` in tienda-es. */
async function call(tool: string, args: unknown) {
  return executeToolCall(
    esCaller,
    {
      traceId: `fug-${randomUUID()}`,
      transport: "anthropic",
      callId: `toolu_fug_${++seq}`,
      endUserToken: await tokenFor(ES, ana),
      model: null,
      promptVersion: null,
    },
    tool,
    args,
  );
}

/**
 * A cancellation of a fresh order of ana's (tienda-es) prepared by the agent, approved by a reviewer and its step 1
 * carried out at the shop: the parent `succeeded` (its execution too), its follow-up refund written `approved` by
 * step 1's settle. Step 2 is never run here (its job waits in the queue).
 */
async function carriedOutCancellation() {
  const o = await freshCardOrder(2_000, { prefix: "FUG", holderName: "Ana García" });
  await shop.setOrder(o.number, { status: "unfulfilled" });
  const { outcome, proposal } = await call(CANCELLATION_TOOL, { order_id: o.number, reason: "changed_mind" });
  expect(outcome.code).toBe("approval_required");
  await approveProposal(esReviewer, { proposalId: proposal!.id, hash: proposal!.hash });
  expect(await executeApprovedProposal(proposal!.id)).toBe("sent"); // step 1 only
  const parent = await db().proposal.findUniqueOrThrow({ where: { id: proposal!.id }, include: { execution: true } });
  expect(parent.status).toBe(P.succeeded);
  const child = await db().proposal.findUniqueOrThrow({ where: { parentId: parent.id } });
  expect(child).toMatchObject({ tenantId: es.id, kind: "refund", status: P.approved });
  return { parentId: parent.id, parentExecutionId: parent.execution!.id, childId: child.id };
}

/** The forgery: the follow-up row moved to shop-us (its customer one of shop-us's) and re-hashed, so it is intact. */
async function moveToUs(childId: string) {
  const row = await db().proposal.findUniqueOrThrow({ where: { id: childId } });
  const moved = { ...row, tenantId: us.id, customerId: john };
  const hash = computeProposalHash(hashInputOf(moved));
  await db().proposal.update({ where: { id: childId }, data: { tenantId: us.id, customerId: john, hash } });
  expect(storedProposalIntact({ ...moved, hash })).toBe(true);
}

/** approvalProblem as the executor calls it before the effect, on the row as stored now (read-only here). */
const problemOf = (id: string) =>
  transaction(async (tx) => {
    const row = await tx.proposal.findUniqueOrThrow({ where: { id }, include: { tenant: true } });
    return approvalProblem(tx, row, new Date());
  });

describe("followUpProblem: a follow-up is authorised only by a parent of its own tenant", () => {
  it("a follow-up whose parent is another tenant's succeeded, intact, approved proposal is refused: parent_not_carried_out", async () => {
    const { parentId, childId } = await carriedOutCancellation();
    // In its own tenant the follow-up is authorised by the parent's approval (nothing else refuses it)…
    expect(await problemOf(childId)).toBeNull();
    await moveToUs(childId);
    // …and the parent is untouched: succeeded, intact, its approval bound to its hash.
    const parent = await db().proposal.findUniqueOrThrow({ where: { id: parentId }, include: { approvals: true } });
    expect(parent).toMatchObject({ tenantId: es.id, status: P.succeeded });
    expect(storedProposalIntact(parent)).toBe(true);
    expect(parent.approvals.map((a) => a.proposalHash)).toEqual([parent.hash]);
    // Same order, same money, same recipient: only the tenant differs, and that alone refuses it.
    expect(await problemOf(childId)).toBe("parent_not_carried_out");
  });
});

describe("the link between the two steps is shown only within one tenant", () => {
  it("a parent and a follow-up of two tenants: neither tenant's staff, agent or evidence pack sees the other's step", async () => {
    const { parentId, parentExecutionId, childId } = await carriedOutCancellation();
    // An execution row for the follow-up, so both execution pages have a step to link (step 2 is never run here).
    const childExecutionId = (
      await db().execution.create({
        data: { tenantId: es.id, proposalId: childId, idempotencyKey: `refund-${childId}`, status: E.failed },
      })
    ).id;
    // Within tienda-es, every view shows the link (so the nulls below are the tenant check's, not a missing link).
    expect((await getKindProposal(esReviewer, parentId)).steps.followUp).toMatchObject({ id: childId });
    expect((await getProposal(esReviewer, childId)).steps.partOf).toMatchObject({ id: parentId });
    expect((await getExecutionDetail(esOps, { executionId: parentExecutionId })).steps.followUp).toMatchObject({
      proposalId: childId,
      executionId: childExecutionId,
    });
    expect((await getExecutionDetail(esOps, { executionId: childExecutionId })).steps.partOf).toMatchObject({
      proposalId: parentId,
      executionId: parentExecutionId,
    });
    const status = async () =>
      (await call("get_action_status", { proposal_id: parentId, wait_seconds: null })).outcome as {
        result?: Record<string, unknown>;
      };
    expect((await status()).result).toMatchObject({ follow_up: { kind: "refund" } });

    await moveToUs(childId);
    await db().execution.update({ where: { id: childExecutionId }, data: { tenantId: us.id } });
    const none = { partOf: null, followUp: null };
    // Proposal pages (action-steps.ts): each tenant's reviewer sees their own proposal, without the other's step.
    expect((await getKindProposal(esReviewer, parentId)).steps).toEqual(none);
    expect((await getProposal(usReviewer, childId)).steps).toEqual(none);
    // The ops' execution page (get-execution-detail.ts), both directions.
    expect((await getExecutionDetail(esOps, { executionId: parentExecutionId })).steps).toEqual(none);
    expect((await getExecutionDetail(usOps, { executionId: childExecutionId })).steps).toEqual(none);
    // The agent's get_action_status on the cancellation (get-action-status.ts): no follow_up from another tenant.
    const answer = await status();
    expect(answer.result).toMatchObject({ proposal_id: parentId, status: P.succeeded });
    expect(answer.result).not.toHaveProperty("follow_up");
    // The evidence pack (build-evidence-pack.ts): no authority — another tenant's proposal and approvals — in it.
    const pack = JSON.parse((await buildEvidencePack(usAuditor, childId)).body) as Record<string, unknown>;
    expect(pack).toMatchObject({ proposal: { id: childId } });
    expect(pack.authority ?? null).toBeNull();
    expect(JSON.stringify(pack)).not.toContain(parentId);
  });
});

describe("Proposal_follow_up_check and Proposal_parentId_key: what the database refuses, whoever writes", () => {
  /** A refund row (approved unless said) of a fresh order of ana's, by the fixtures' writer: no product rule in the way. */
  const refundRow = async (status: typeof P.approved | typeof P.pendingApproval = P.approved) =>
    (
      await createProposalRow(
        db(),
        es,
        await createPaidOrder(db(), es, { customerId: ana, amountMinor: 1_000, prefix: "FUG" }),
        { customerId: ana, expiresAt: new Date(Date.now() + 3_600_000), status },
      )
    ).id;
  const setParent = (id: string, parentId: string) =>
    sql`UPDATE "Proposal" SET "parentId" = ${parentId}::uuid WHERE "id" = ${id}::uuid`.execute(sqlPool());
  const setStatus = (id: string, status: string) =>
    sql`UPDATE "Proposal" SET "status" = ${status}::"ProposalStatus" WHERE "id" = ${id}::uuid`.execute(sqlPool());

  it("a proposal is never its own parent; a follow-up never awaits a review of its own; one follow-up per parent", async () => {
    const [parent, child, other, pending] = await Promise.all([
      refundRow(),
      refundRow(),
      refundRow(),
      refundRow(P.pendingApproval),
    ]);
    // A follow-up as the product writes it: another proposal's, not pending review.
    await setParent(child, parent);
    expect((await db().proposal.findUniqueOrThrow({ where: { id: child } })).parentId).toBe(parent);

    await expect(setParent(other, other)).rejects.toMatchObject({
      code: "23514",
      constraint: "Proposal_follow_up_check",
    });
    await expect(setStatus(child, P.pendingApproval)).rejects.toMatchObject({
      code: "23514",
      constraint: "Proposal_follow_up_check",
    });
    // Nor does a proposal awaiting its own review become a follow-up.
    await expect(setParent(pending, other)).rejects.toMatchObject({
      code: "23514",
      constraint: "Proposal_follow_up_check",
    });
    await expect(setParent(other, parent)).rejects.toMatchObject({
      code: "23505",
      constraint: "Proposal_parentId_key",
    });
    expect(await db().proposal.count({ where: { parentId: parent } })).toBe(1);
  });
});
