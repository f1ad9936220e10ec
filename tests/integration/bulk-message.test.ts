// The bulk message kind (send_bulk_message, docs/action-kinds.md "The bulk message") beyond the conformance suite,
// against the real database, the gateway (executeToolCall) and the real sandbox shop (a spawned process on its own
// database): prepare computes the audience from the tenant's orders (count, masked sample, digest, text, window);
// refusals (unknown segment, another tenant's, empty audience, the daily recipients cap); four eyes at the tenant's
// recipients threshold and the reviewer's daily recipients cap at approval; revalidation when the audience or the
// segment changed; execution in keyed batches where a worker killed mid-way (after a batch's POST, before its record)
// resumes and sends every batch exactly once (the shop counts the POSTs of each key); the evidence pack lists the
// batches; and the segments' admin API (role, step-up, validation, versions, tenant scope).
import { createHash } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { ShopControl } from "@/shop-sandbox/control-client";
import { verifyEvidencePack, type EvidencePack } from "@/lib/domain/evidence-pack";
import { actionIdempotencyKey, executionStatus as E } from "@/lib/domain/execution-state";
import { storedProposalIntact } from "@/lib/domain/proposal-hash";
import { proposalStatus as P } from "@/lib/domain/proposal-state";
import * as endpointClient from "@/lib/server/action-endpoint/client";
import { createSegmentVersion, getBulkPolicy, listSegments, setBulkPolicy } from "@/lib/server/admin/segments";
import { authenticateAgentKey, type AgentCaller } from "@/lib/server/agent/authenticate-agent-key";
import { executeToolCall } from "@/lib/server/agent/execute-tool-call";
import { buildEvidencePack } from "@/lib/server/audit/build-evidence-pack";
import { integratePending } from "@/lib/server/audit/sequencer";
import { auditPublicKey } from "@/lib/server/audit/signing-key";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";
import { sqlPool } from "@/lib/server/db/pg";
import { sql } from "@/lib/server/db/sql";
import { executeBulkMessage, reconcileBulkMessage } from "@/lib/actions/bulk-message/executor";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import { kindFieldsOf } from "@/lib/server/proposals/kind-review";
import { stopProposalChanges } from "@/lib/server/realtime/proposal-changes";
import { actorFor, staffOf } from "../support/actors";
import { allowKindTool, startShopBehindEndpoint } from "../support/address-change-shop";
import { addBuyer, freshCustomers, segmentOfBuyers } from "../support/bulk-message-segments";
import { refusal } from "../support/refusal";
import { ES, US, ana, john, tokenFor, webKey } from "./gateway-support";

// The transport to the shop, wrapped so a test can kill the worker right after a batch's POST reached the shop (or
// right before it leaves): the real request is made; only the worker's own bookkeeping after it is cut short.
vi.mock("@/lib/server/action-endpoint/client", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/server/action-endpoint/client")>();
  return { ...real, sendAction: vi.fn(real.sendAction) };
});
const realClient = await vi.importActual<typeof import("@/lib/server/action-endpoint/client")>(
  "@/lib/server/action-endpoint/client",
);
const sendMock = vi.mocked(endpointClient.sendAction);

const TOOL = "prepare_bulk_message";
const KIND = "send_bulk_message";
const TEXT = "Our summer sale starts tomorrow: 20% off every mug.";
/** The executor's clock for the send window (ES: 09:00–20:00 Europe/Madrid): noon in Madrid, inside it. */
const midday = () => new Date("2026-12-07T11:00:00Z");

let stopShop: (() => Promise<void>) | undefined;
let shop: ShopControl;
const callers: Record<string, AgentCaller> = {};
let reviewer: Actor;
let reviewer2: Actor;
let admin: Actor;
let esTenantId: string;
let seq = 0;

beforeAll(async () => {
  ({ control: shop, stop: stopShop } = await startShopBehindEndpoint(ES));
  await allowKindTool([ES, US], TOOL);
  for (const tenant of [ES, US]) {
    const auth = await authenticateAgentKey(`Bearer ${webKey(tenant)}`);
    if (!auth.ok) throw new Error(`demo agent key of ${tenant} refused`);
    callers[tenant] = auth.caller;
  }
  reviewer = await actorFor(staffOf(ES, "reviewer").email);
  reviewer2 = await actorFor(staffOf(ES, "reviewer", 1).email);
  admin = await actorFor(staffOf(ES, "admin").email);
  esTenantId = (await db().tenant.findUniqueOrThrow({ where: { slug: ES } })).id;
  // A worker that died mid-way is resumed at once (not after the default 30 s a `sending` batch is presumed in flight).
  process.env.EXECUTION_STALE_SENDING_MS = "0";
});

afterAll(async () => {
  await stopProposalChanges();
  await stopShop?.();
});

beforeEach(async () => {
  sendMock.mockImplementation(realClient.sendAction);
  await shop.clearFaults();
  await db().bulkMessagePolicy.deleteMany({ where: { tenantId: esTenantId } });
});

const setPolicy = (values: {
  recipientsThreshold?: number;
  dailyRecipientsCap?: number | null;
  tolerancePercent?: number;
}) => db().bulkMessagePolicy.create({ data: { tenantId: esTenantId, ...values } });

async function call(args: unknown, tenant = ES, customer = ana) {
  return executeToolCall(
    callers[tenant]!,
    {
      traceId: `bm-${Date.now().toString(36)}-${++seq}`,
      transport: "anthropic",
      callId: `toolu_bm_${seq}`,
      endUserToken: await tokenFor(tenant, customer),
      model: null,
      promptVersion: null,
    },
    TOOL,
    args,
  );
}

const prepare = (segment: string, more: Record<string, unknown> = {}) =>
  call({ segment, channel: "email", text: TEXT, ...more });

function resultOf(outcome: { code: string }): Record<string, unknown> {
  if (!("result" in outcome)) throw new Error(`expected a result, got ${JSON.stringify(outcome)}`);
  return outcome.result as Record<string, unknown>;
}

/** A segment whose audience is `n` fresh customers, and its pending proposal. */
async function prepared(n: number) {
  const customers = await freshCustomers(ES, n);
  const segment = await segmentOfBuyers(ES, customers);
  const answer = await prepare(segment.slug);
  expect(answer.outcome.code).toBe("approval_required");
  const result = resultOf(answer.outcome);
  return { customers, segment, id: String(result.proposal_id), hash: String(result.hash), result };
}

const proposalRow = (id: string) => db().proposal.findUniqueOrThrow({ where: { id } });
const segmentProposals = (slug: string) =>
  db().proposal.findMany({ where: { kind: KIND, subject: { path: ["ref"], equals: slug } } });
const shopBatches = async (slug: string) =>
  (await shop.actions({ orderNumber: slug })).data.filter((a) => a.kind === KIND);

describe("prepare_bulk_message", () => {
  it("computes the audience from the tenant's orders: count, masked sample of five, exact text, window, digest — hashed", async () => {
    const customers = await freshCustomers(ES, 7);
    const segment = await segmentOfBuyers(ES, customers);
    // A customer who bought twice is one recipient; a buyer of another SKU is none.
    await addBuyer(ES, segment.sku, customers[0]!);
    await addBuyer(ES, "OTHER-SKU", ana);
    const { outcome, proposal } = await prepare(segment.slug);
    const result = resultOf(outcome);
    const digest = createHash("sha256")
      .update(JSON.stringify([...customers].sort()))
      .digest("hex");
    expect(result).toMatchObject({
      kind: KIND,
      status: P.pendingApproval,
      segment: segment.slug,
      channel: "email",
      text: TEXT,
      text_length: TEXT.length,
      recipients: 7,
      send_window: "09:00–20:00 (Europe/Madrid)",
      approvals_required: 1,
    });
    const sample = result.sample as string[];
    expect(sample).toHaveLength(5);
    for (const masked of sample) expect(masked).toMatch(/^b•••@e•••\.com$/);
    const row = await proposalRow(proposal!.id);
    expect(storedProposalIntact(row)).toBe(true);
    expect(row).toMatchObject({
      subject: { type: "segment", ref: segment.slug },
      params: {
        segment: { id: segment.id, slug: segment.slug, version: 1 },
        audience: { count: 7, digest },
        text: TEXT,
        textLength: TEXT.length,
      },
      source: { recipients: [...customers].sort() },
    });
    // No contact is stored in clear in the proposal: only the masked sample.
    expect(JSON.stringify(row.params)).not.toContain("@example.com");
    // Asked again unchanged: the same proposal, the same digest (stable).
    const again = resultOf((await prepare(segment.slug)).outcome);
    expect(again.proposal_id).toBe(proposal!.id);
    expect((await segmentProposals(segment.slug)).length).toBe(1);
    // Another text replaces it.
    const other = resultOf((await prepare(segment.slug, { text: "Another text" })).outcome);
    expect(other.proposal_id).not.toBe(proposal!.id);
    expect(await proposalRow(proposal!.id)).toMatchObject({ status: P.invalidated });
    expect((await proposalRow(String(other.proposal_id))).params).toMatchObject({ audience: { digest } });
    // The review shows count, sample, text, channel and window from the hashed params.
    const fields = kindFieldsOf(KIND, (await proposalRow(String(other.proposal_id))).params);
    expect(fields?.map((f) => f.key)).toEqual([
      "segment",
      "channel",
      "recipients",
      "sample",
      "text",
      "textLength",
      "window",
    ]);
  });

  it("refuses an unknown segment and another tenant's alike (not_found), an empty audience, sms without phones, a blank or too long text", async () => {
    const missing = (await prepare("no-such-segment")).outcome;
    expect(missing).toMatchObject({ code: "not_found", error: { reason: "unknown_segment" } });
    // The other tenant's segment, with buyers there: the same answer as one never declared.
    const foreign = await segmentOfBuyers(US, [john]);
    const theirs = await prepare(foreign.slug);
    expect(theirs.outcome).toMatchObject({ code: "not_found", error: { reason: "unknown_segment" } });
    expect(JSON.stringify(theirs.outcome).replaceAll(foreign.slug, "X")).toBe(
      JSON.stringify(missing).replaceAll("no-such-segment", "X"),
    );
    expect(theirs.proposal).toBeFalsy();
    expect(await segmentProposals(foreign.slug)).toEqual([]);
    // Declared, nobody bought its SKU.
    const empty = await segmentOfBuyers(ES, []);
    expect((await prepare(empty.slug)).outcome).toMatchObject({
      code: "permission_denied",
      error: { reason: "empty_audience", recipients: 0 },
    });
    // Our copy holds no phone numbers: an SMS reaches nobody.
    const buyers = await segmentOfBuyers(ES, await freshCustomers(ES, 2));
    expect((await prepare(buyers.slug, { channel: "sms" })).outcome).toMatchObject({
      code: "permission_denied",
      error: { reason: "empty_audience" },
    });
    expect((await prepare(buyers.slug, { text: "   " })).outcome).toMatchObject({ code: "invalid_arguments" });
    expect((await prepare(buyers.slug, { text: "x".repeat(1_001) })).outcome).toMatchObject({
      code: "invalid_arguments",
      error: { problems: [{ path: "$.text" }] },
    });
    expect(await segmentProposals(empty.slug)).toEqual([]);
    expect(await segmentProposals(buyers.slug)).toEqual([]);
  });

  it("refuses an audience larger than one reviewer's daily recipients cap (limit_exceeded)", async () => {
    await setPolicy({ dailyRecipientsCap: 2 });
    const segment = await segmentOfBuyers(ES, await freshCustomers(ES, 3));
    const { outcome, proposal } = await prepare(segment.slug);
    expect(outcome).toMatchObject({
      code: "limit_exceeded",
      error: { reason: "over_daily_recipients_cap", recipients: 3, cap: 2 },
    });
    expect(proposal).toBeFalsy();
  });
});

describe("policy", () => {
  it("sms: the audience is the customers with a phone on record, by their phone (masked in the sample); those without one are skipped and counted — hashed, and in the review", async () => {
    const customers = await freshCustomers(ES, 4);
    const segment = await segmentOfBuyers(ES, customers);
    const phones = ["+34612345601", "+34612345602", "+34612345603"];
    for (const [i, phone] of phones.entries())
      await db().customer.update({
        where: { tenantId_id: { tenantId: esTenantId, id: customers[i]! } },
        data: { phone },
      });
    // A blank phone is no phone.
    await db().customer.update({
      where: { tenantId_id: { tenantId: esTenantId, id: customers[3]! } },
      data: { phone: " " },
    });
    await db().customer.update({
      where: { tenantId_id: { tenantId: esTenantId, id: customers[2]! } },
      data: { phone: null },
    });
    const { outcome, proposal } = await prepare(segment.slug, { channel: "sms" });
    expect(resultOf(outcome)).toMatchObject({
      channel: "sms",
      recipients: 2,
      without_phone: 2,
      sample: ["+34•••••••01", "+34•••••••02"],
    });
    const row = await proposalRow(proposal!.id);
    expect(storedProposalIntact(row)).toBe(true);
    expect(row.params).toMatchObject({ channel: "sms", audience: { count: 2, withoutPhone: 2 } });
    expect(row.source).toEqual({ recipients: customers.slice(0, 2) });
    expect(kindFieldsOf(KIND, row.params)).toContainEqual({
      key: "withoutPhone",
      before: null,
      after: "2",
      changed: false,
    });
    // An e-mail to the same segment reaches all four and says nothing about phones.
    const email = await prepare(segment.slug, { text: "Another text" });
    expect(resultOf(email.outcome)).toMatchObject({ channel: "email", recipients: 4 });
    expect(resultOf(email.outcome)).not.toHaveProperty("without_phone");
  });

  it("two reviewers at or above the tenant's recipients threshold; one below it", async () => {
    await setPolicy({ recipientsThreshold: 3 });
    const below = await prepared(2);
    expect(below.result.approvals_required).toBe(1);
    const { id, hash, result } = await prepared(3);
    expect(result.approvals_required).toBe(2);
    expect(await approveProposal(reviewer, { proposalId: id, hash })).toMatchObject({ status: P.pendingApproval });
    expect(await refusal(approveProposal(reviewer, { proposalId: id, hash }))).toMatchObject({
      reason: "already_approved",
    });
    expect(await approveProposal(reviewer2, { proposalId: id, hash })).toMatchObject({ status: P.approved });
  });

  it("a reviewer's approvals are capped at the tenant's daily recipients; another reviewer may approve", async () => {
    await setPolicy({ dailyRecipientsCap: 5 });
    const approver = reviewer2;
    // What this reviewer approved earlier today counts.
    const today = await db().approval.findMany({
      where: {
        approverId: approver.userId,
        proposal: { kind: KIND },
        createdAt: { gt: new Date(Date.now() - 3_600_000) },
      },
      select: { proposal: { select: { params: true } } },
    });
    const used = today.reduce((n, a) => n + (a.proposal.params as { audience: { count: number } }).audience.count, 0);
    await db().bulkMessagePolicy.update({ where: { tenantId: esTenantId }, data: { dailyRecipientsCap: used + 5 } });
    const first = await prepared(3);
    expect(await approveProposal(approver, { proposalId: first.id, hash: first.hash })).toMatchObject({
      status: P.approved,
    });
    const second = await prepared(3);
    expect(await refusal(approveProposal(approver, { proposalId: second.id, hash: second.hash }))).toMatchObject({
      code: "limit_exceeded",
      reason: "daily_recipients",
    });
    expect((await proposalRow(second.id)).status).toBe(P.pendingApproval);
    expect(await approveProposal(reviewer, { proposalId: second.id, hash: second.hash })).toMatchObject({
      status: P.approved,
    });
  });
});

describe("revalidation", () => {
  it("the audience changed before approval: invalidated (audience_changed)", async () => {
    const { segment, id, hash } = await prepared(2);
    await addBuyer(ES, segment.sku, (await freshCustomers(ES, 1))[0]!);
    expect(await refusal(approveProposal(reviewer, { proposalId: id, hash }))).toMatchObject({ code: "invalidated" });
    expect(await proposalRow(id)).toMatchObject({ status: P.invalidated, invalidationReason: "audience_changed" });
  });

  it("an admin's new version of the segment invalidates (segment_changed)", async () => {
    const { segment, id, hash } = await prepared(2);
    await createSegmentVersion(admin, { slug: segment.slug, name: "Renamed", filter: { skus: [segment.sku] } });
    expect(await refusal(approveProposal(reviewer, { proposalId: id, hash }))).toMatchObject({ code: "invalidated" });
    expect(await proposalRow(id)).toMatchObject({ invalidationReason: "segment_changed" });
  });

  it("within the tenant's tolerance it stays approvable and sends only to approved recipients; beyond it before execution, nothing is sent", async () => {
    await setPolicy({ tolerancePercent: 50 });
    const { segment, customers, id, hash } = await prepared(4);
    const newcomer = (await freshCustomers(ES, 1))[0]!;
    await addBuyer(ES, segment.sku, newcomer); // 1 of 4 moved: 25 % ≤ 50 %
    expect(await approveProposal(reviewer, { proposalId: id, hash })).toMatchObject({ status: P.approved });
    expect(await executeBulkMessage(id, midday)).toBe("sent");
    const [batch] = await shopBatches(segment.slug);
    const sent = (batch!.request as { params: { recipients: string[] } }).params.recipients;
    expect(sent.sort()).toEqual([...customers].sort());
    expect(sent).not.toContain(newcomer);

    const later = await prepared(2);
    expect(await approveProposal(reviewer, { proposalId: later.id, hash: later.hash })).toMatchObject({
      status: P.approved,
    });
    for (const c of await freshCustomers(ES, 2)) await addBuyer(ES, later.segment.sku, c); // 2 of 2: 100 %
    expect(await executeBulkMessage(later.id, midday)).toBe("revalidation_failed");
    expect(await proposalRow(later.id)).toMatchObject({ invalidationReason: "audience_changed" });
    expect(await shopBatches(later.segment.slug)).toEqual([]);
  });
});

describe("execution in keyed batches", () => {
  /** 250 recipients: three batches (100, 100, 50), approved (one reviewer: the tenant's threshold raised for it). */
  async function approvedOf250() {
    await setPolicy({ recipientsThreshold: 1_000 });
    const p = await prepared(250);
    expect(await approveProposal(reviewer, { proposalId: p.id, hash: p.hash })).toMatchObject({ status: P.approved });
    return p;
  }
  const key = (id: string, i: number) => `${actionIdempotencyKey(KIND, id)}:batch:${i}`;

  it("a worker killed after batch 1's POST and before its record: resumed, every batch reaches the shop exactly once", async () => {
    const { id, segment, customers } = await approvedOf250();
    sendMock.mockImplementation(async (tenantId, request, opts) => {
      const answer = await realClient.sendAction(tenantId, request, opts);
      if (request.idempotency_key.endsWith(":batch:1")) throw new Error("worker killed");
      return answer;
    });
    await expect(executeBulkMessage(id, midday)).rejects.toThrow("worker killed");
    sendMock.mockImplementation(realClient.sendAction);
    const ex = await db().execution.findUniqueOrThrow({ where: { proposalId: id } });
    const rows = await db().bulkMessageBatch.findMany({ where: { executionId: ex.id }, orderBy: { index: "asc" } });
    expect(rows.map((b) => b.status)).toEqual(["succeeded", "sending", "planned"]);
    expect((await shopBatches(segment.slug)).map((a) => a.idempotencyKey).sort()).toEqual([key(id, 0), key(id, 1)]);
    // Executing again is no blind re-send.
    expect(await executeBulkMessage(id, midday)).toBe("already_started");

    expect(await reconcileBulkMessage(ex.id, midday)).toBe("settled");
    const atShop = await shopBatches(segment.slug);
    expect(atShop.map((a) => a.idempotencyKey).sort()).toEqual([key(id, 0), key(id, 1), key(id, 2)]);
    expect(atShop.map((a) => a.receipts)).toEqual([1, 1, 1]);
    // Batch 1 was looked up by its key, never POSTed again; every recipient once; ids only, never a contact.
    const after = await db().bulkMessageBatch.findMany({ where: { executionId: ex.id }, orderBy: { index: "asc" } });
    expect(after.map((b) => [b.status, b.attempts])).toEqual([
      ["succeeded", 1],
      ["succeeded", 1],
      ["succeeded", 1],
    ]);
    const recipients = atShop.flatMap((a) => (a.request as { params: { recipients: string[] } }).params.recipients);
    expect(recipients.sort()).toEqual([...customers].sort());
    expect(JSON.stringify(atShop.map((a) => a.request))).not.toContain("@");
    expect(await db().execution.findUniqueOrThrow({ where: { id: ex.id } })).toMatchObject({
      status: E.succeeded,
      attempts: 1,
    });
    expect((await proposalRow(id)).status).toBe(P.succeeded);
    expect(await reconcileBulkMessage(ex.id, midday)).toBe("already_settled");

    // The evidence pack proves which batches went: their keys and the shop's references.
    const auditor = await actorFor(staffOf(ES, "auditor").email);
    await integratePending();
    const { body } = await buildEvidencePack(auditor, id);
    const verdict = await verifyEvidencePack(body, { publicKey: auditPublicKey().publicKey });
    expect(verdict.checks.filter((c) => !c.ok)).toEqual([]);
    const pack = JSON.parse(body) as EvidencePack;
    const done = pack.events.find((e) => e.action === "execution:batches_done");
    const listed = (done?.data as { batches: { idempotency: string; reference: string }[] }).batches;
    expect(listed.map((b) => b.idempotency)).toEqual([key(id, 0), key(id, 1), key(id, 2)]);
    expect(listed.map((b) => b.reference).sort()).toEqual(atShop.map((a) => a.reference).sort());
  });

  it("a worker killed after claiming batch 1 but before its POST: the look-up finds nothing, the same key is sent once", async () => {
    const { id, segment } = await approvedOf250();
    sendMock.mockImplementation(async (tenantId, request, opts) => {
      if (request.idempotency_key.endsWith(":batch:1")) throw new Error("worker killed");
      return realClient.sendAction(tenantId, request, opts);
    });
    await expect(executeBulkMessage(id, midday)).rejects.toThrow("worker killed");
    sendMock.mockImplementation(realClient.sendAction);
    expect((await shopBatches(segment.slug)).map((a) => a.idempotencyKey)).toEqual([key(id, 0)]);
    const ex = await db().execution.findUniqueOrThrow({ where: { proposalId: id } });
    expect(await reconcileBulkMessage(ex.id, midday)).toBe("settled");
    const atShop = await shopBatches(segment.slug);
    expect(atShop.map((a) => a.receipts)).toEqual([1, 1, 1]);
    const b1 = await db().bulkMessageBatch.findFirstOrThrow({ where: { executionId: ex.id, index: 1 } });
    expect(b1).toMatchObject({ status: "succeeded", attempts: 2, idempotencyKey: key(id, 1) });
    const resends = await db().auditEvent.findMany({ where: { proposalId: id, action: "execution:resend" } });
    expect(resends).toHaveLength(1);
  });

  it("a batch whose answer is lost (the shop's fault switch): in doubt, then looked up and resumed; each key once", async () => {
    const { id, segment } = await approvedOf250();
    // The shop takes batch 0 and drops the connection: the run stops there, in doubt.
    await shop.addFault({ kind: "drop_after_commit", orderNumber: segment.slug });
    expect(await executeBulkMessage(id, midday)).toBe("sent");
    const ex = await db().execution.findUniqueOrThrow({ where: { proposalId: id } });
    expect(ex.status).toBe(E.unknown);
    expect((await proposalRow(id)).status).toBe(P.needsReconciliation);
    expect((await shopBatches(segment.slug)).length).toBe(1);
    expect(await reconcileBulkMessage(ex.id, midday)).toBe("settled");
    const atShop = await shopBatches(segment.slug);
    expect(atShop.map((a) => a.receipts)).toEqual([1, 1, 1]);
    expect((await proposalRow(id)).status).toBe(P.succeeded);
  });

  it("a batch the shop refuses fails the execution; the later batches are never sent", async () => {
    const { id, segment } = await approvedOf250();
    // The shop refuses batch 1 (its recipients list changed under our feet: a shop-side refusal is `failed`).
    sendMock.mockImplementation(async (tenantId, request, opts) =>
      request.idempotency_key.endsWith(":batch:1")
        ? realClient.sendAction(tenantId, { ...request, params: { ...request.params, recipients: [] } }, opts)
        : realClient.sendAction(tenantId, request, opts),
    );
    expect(await executeBulkMessage(id, midday)).toBe("sent");
    sendMock.mockImplementation(realClient.sendAction);
    expect(await db().execution.findUniqueOrThrow({ where: { proposalId: id } })).toMatchObject({
      status: E.failed,
    });
    expect((await proposalRow(id)).status).toBe(P.failed);
    expect((await shopBatches(segment.slug)).map((a) => [a.idempotencyKey, a.status]).sort()).toEqual([
      [key(id, 0), "succeeded"],
      [key(id, 1), "failed"],
    ]);
  });
});

describe("Admin → Segments (/api/admin/segments)", () => {
  it("admins only, with step-up; validated; a change is a new version; another tenant's segments are invisible", async () => {
    const slug = `api-${Date.now().toString(36)}`;
    const body = { slug, name: "Mug buyers", filter: { skus: ["MUG-1"], countries: ["ES"] } };
    expect(await refusal(createSegmentVersion(reviewer, body))).toMatchObject({ code: "permission_denied" });
    expect(await refusal(listSegments(reviewer))).toMatchObject({ code: "permission_denied" });
    const stale = await actorFor(staffOf(ES, "admin").email, { authAgoSeconds: 3600 });
    expect(await refusal(createSegmentVersion(stale, body))).toMatchObject({ reason: "step_up_required" });
    expect(await refusal(createSegmentVersion(stale, { ...body, stepUpPassword: "wrong" }))).toMatchObject({
      reason: "step_up_failed",
    });
    expect(await refusal(createSegmentVersion(admin, { ...body, filter: {} }))).toMatchObject({
      code: "invalid_arguments",
    });
    expect(await refusal(createSegmentVersion(admin, { ...body, slug: "Not A Slug" }))).toMatchObject({
      code: "invalid_arguments",
    });
    expect(
      await refusal(createSegmentVersion(admin, { ...body, filter: { statuses: ["shipped"], extra: 1 } })),
    ).toMatchObject({ code: "invalid_arguments" });
    expect(
      await refusal(
        createSegmentVersion(admin, {
          ...body,
          filter: { placedFrom: "2026-02-01T00:00:00Z", placedTo: "2026-01-01T00:00:00Z" },
        }),
      ),
    ).toMatchObject({ code: "invalid_arguments" });

    expect(await createSegmentVersion(admin, body)).toMatchObject({ slug, version: 1, name: "Mug buyers" });
    expect(await refusal(createSegmentVersion(admin, body))).toMatchObject({ reason: "segment_unchanged" });
    const v2 = await createSegmentVersion(admin, { ...body, filter: { skus: ["MUG-1"] } });
    expect(v2).toMatchObject({ slug, version: 2, filter: { skus: ["MUG-1"] } });
    // Both versions are kept (a proposal names the one it hashed); the list answers the newest.
    expect(await db().segment.count({ where: { tenantId: esTenantId, slug } })).toBe(2);
    const listed = (await listSegments(admin)).data.filter((s) => s.slug === slug);
    expect(listed).toEqual([expect.objectContaining({ version: 2, id: v2.id })]);
    const audit = await db().auditEvent.findMany({ where: { tenantId: esTenantId, action: "admin:segment_version" } });
    expect(audit.length).toBeGreaterThanOrEqual(2);

    // The other tenant's admin sees none of it, and the same slug there is its own segment.
    const usAdmin = await actorFor(staffOf(US, "admin").email);
    expect((await listSegments(usAdmin)).data.filter((s) => s.slug === slug)).toEqual([]);
    expect(await createSegmentVersion(usAdmin, body)).toMatchObject({ slug, version: 1 });
  });

  it("the bulk-message policy: admins read and set it with step-up, bounded and validated, audited; a tightening applies at once and new proposals use it, a loosening needs a second admin", async () => {
    expect(await refusal(getBulkPolicy(reviewer))).toMatchObject({ code: "permission_denied" });
    expect(await refusal(setBulkPolicy(reviewer, { recipientsThreshold: 5 }))).toMatchObject({
      code: "permission_denied",
    });
    const stale = await actorFor(staffOf(ES, "admin").email, { authAgoSeconds: 3600 });
    expect(await refusal(setBulkPolicy(stale, { recipientsThreshold: 5 }))).toMatchObject({
      reason: "step_up_required",
    });
    expect(await getBulkPolicy(admin)).toMatchObject({
      recipientsThreshold: 100,
      dailyRecipientsCap: 5_000,
      tolerancePercent: 0,
      windowStartHour: 9,
      windowEndHour: 20,
      timeZone: "Europe/Madrid",
      ownTimeZone: false,
      updatedAt: null,
    });
    for (const bad of [
      {},
      { recipientsThreshold: 0 },
      { recipientsThreshold: 10_001 },
      { dailyRecipientsCap: 0 },
      { tolerancePercent: 101 },
      { windowStartHour: 24 },
      { windowEndHour: 25 },
      { windowStartHour: 20 }, // after the current end (20): the window would be empty
      { timeZone: "Mars/Olympus_Mons" },
      { recipientsThreshold: 5, extra: 1 },
    ])
      expect(await refusal(setBulkPolicy(admin, bad)), JSON.stringify(bad)).toMatchObject({
        code: "invalid_arguments",
      });
    expect(await db().bulkMessagePolicy.count({ where: { tenantId: esTenantId } })).toBe(0);

    // Tightening (a lower threshold, a window that opens later) applies at once, by one admin.
    const set = await setBulkPolicy(admin, { recipientsThreshold: 3, windowStartHour: 10 });
    expect(set).toMatchObject({
      status: "applied",
      recipientsThreshold: 3,
      windowStartHour: 10,
      windowEndHour: 20,
      timeZone: "Europe/Madrid",
      ownTimeZone: false,
    });
    const { id } = await prepared(3);
    expect(await proposalRow(id)).toMatchObject({
      requiredApprovals: 2,
      params: expect.objectContaining({ window: { startHour: 10, endHour: 20, timeZone: "Europe/Madrid" } }),
    });
    // Loosening (no cap, a tolerance) waits for a second admin, and this tenant has none: refused, nothing changes
    // (the second admin's part: admin-bulk-policy.test.ts).
    expect(await refusal(setBulkPolicy(admin, { dailyRecipientsCap: null, tolerancePercent: 10 }))).toMatchObject({
      code: "permission_denied",
      reason: "no_second_admin",
    });
    expect(await getBulkPolicy(admin)).toMatchObject({ dailyRecipientsCap: 5_000, tolerancePercent: 0 });
    const audit = await db().auditEvent.findMany({
      where: { tenantId: esTenantId, action: "admin:bulk_message_policy" },
      orderBy: { pos: "asc" },
    });
    expect(audit.map((e) => (e.data as { after: { loosens: string[] } }).after.loosens)).toEqual([[]]);
    expect(audit[0]!.data).toMatchObject({ before: { recipientsThreshold: 100 }, after: { recipientsThreshold: 3 } });
    // Another tenant's policy is its own.
    expect(await getBulkPolicy(await actorFor(staffOf(US, "admin").email))).toMatchObject({
      recipientsThreshold: 100,
      timeZone: "America/New_York",
    });
  });
});

describe("the send window, enforced by the executor (a controlled clock; ES: 09:00–20:00 Europe/Madrid)", () => {
  const at = (iso: string) => () => new Date(iso);
  const jobsOf = async (executionId: string) =>
    (
      await sql<{ runAt: Date }>`
        SELECT run_at AS "runAt" FROM graphile_worker._private_jobs WHERE key = ${`reconcile:${executionId}`}`.execute(
        sqlPool(),
      )
    ).rows.map((j) => j.runAt.toISOString());

  it("before it opens nothing is sent: the execution waits for the opening with one job at that instant, then sends", async () => {
    const { id, hash, segment } = await prepared(2);
    expect(await approveProposal(reviewer, { proposalId: id, hash })).toMatchObject({ status: P.approved });
    // 06:00 in Madrid (CET, UTC+1): the window opens at 09:00 = 08:00 UTC.
    expect(await executeBulkMessage(id, at("2026-12-07T05:00:00Z"))).toBe("waiting_for_window");
    const ex = await db().execution.findUniqueOrThrow({ where: { proposalId: id } });
    expect(ex.status).toBe(E.pending); // waiting, not a stuck send: ops are not alerted
    expect(await proposalRow(id)).toMatchObject({ status: P.executing });
    expect(await shopBatches(segment.slug)).toEqual([]);
    // One keyed job at the opening: no retry loop (the crash-resume job is replaced, not added to).
    expect(await jobsOf(ex.id)).toEqual(["2026-12-07T08:00:00.000Z"]);
    const waited = await db().auditEvent.findMany({
      where: { proposalId: id, action: "execution:waiting_for_window" },
    });
    expect(waited.map((e) => (e.data as { opensAt: string }).opensAt)).toEqual(["2026-12-07T08:00:00.000Z"]);

    // A reconciler run a minute early still sends nothing.
    expect(await reconcileBulkMessage(ex.id, at("2026-12-07T07:59:00Z"))).toBe("waiting_for_window");
    expect(await shopBatches(segment.slug)).toEqual([]);
    // At the opening: sent, once.
    expect(await reconcileBulkMessage(ex.id, at("2026-12-07T08:00:00Z"))).toBe("settled");
    expect((await shopBatches(segment.slug)).map((a) => a.receipts)).toEqual([1]);
    expect(await proposalRow(id)).toMatchObject({ status: P.succeeded });
  });

  it("a batch that would start after the window closes waits for the next day's opening; the batches before it went", async () => {
    await setPolicy({ recipientsThreshold: 1_000 });
    const { id, hash, segment } = await prepared(150); // two batches: 100 and 50
    expect(await approveProposal(reviewer, { proposalId: id, hash })).toMatchObject({ status: P.approved });
    // The first batch starts at 19:59 in Madrid; by the second it is 20:00: closed.
    let reads = 0;
    const closing = () => new Date(++reads === 1 ? "2026-12-07T18:59:00Z" : "2026-12-07T19:00:00Z");
    expect(await executeBulkMessage(id, closing)).toBe("waiting_for_window");
    const ex = await db().execution.findUniqueOrThrow({ where: { proposalId: id } });
    const rows = await db().bulkMessageBatch.findMany({ where: { executionId: ex.id }, orderBy: { index: "asc" } });
    expect(rows.map((b) => b.status)).toEqual(["succeeded", "planned"]);
    expect(await shopBatches(segment.slug)).toHaveLength(1);
    expect(await jobsOf(ex.id)).toEqual(["2026-12-08T08:00:00.000Z"]); // tomorrow 09:00 in Madrid

    // Late in the evening the reconciler still waits; the next morning it sends the rest, each batch once.
    expect(await reconcileBulkMessage(ex.id, at("2026-12-07T22:30:00Z"))).toBe("waiting_for_window");
    expect(await reconcileBulkMessage(ex.id, at("2026-12-08T08:00:00Z"))).toBe("settled");
    const atShop = await shopBatches(segment.slug);
    expect(atShop.map((a) => a.receipts)).toEqual([1, 1]);
    expect(await proposalRow(id)).toMatchObject({ status: P.succeeded });
  });
});
