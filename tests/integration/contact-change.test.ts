// The contact-change kind (update_customer_contact, docs/action-kinds.md) end to end, against the real database and
// the real sandbox shop (a spawned process on its own database): prepare_contact_change through the gateway for the
// customer the end-user token names — the new value validated (e-mail syntax and domain, phone as E.164), the value on
// record masked for the reviewer, one pending proposal per customer (another value replaces it), another tenant's
// customer with the same id kept apart, a change of the value elsewhere invalidating the proposal at approval and
// before execution, execution on the shop's action endpoint once — and the audit table never holding either value.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ShopControl } from "@/shop-sandbox/control-client";
import { executionStatus as E } from "@/lib/domain/execution-state";
import { storedProposalIntact, KIND_HASH_VERSION } from "@/lib/domain/proposal-hash";
import { proposalStatus as P } from "@/lib/domain/proposal-state";
import { authenticateAgentKey, type AgentCaller } from "@/lib/server/agent/authenticate-agent-key";
import { executeToolCall } from "@/lib/server/agent/execute-tool-call";
import { kindToolHandlers } from "@/lib/actions/registry.server";
import { redact } from "@/lib/domain/redaction";
import { auditFingerprint } from "@/lib/server/audit/fingerprint";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";
import { sqlPool } from "@/lib/server/db/pg";
import { sql } from "@/lib/server/db/sql";
import { executeApprovedProposal } from "@/lib/server/executions/run-execution";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import { getProposal } from "@/lib/server/proposals/get-proposal";
import { kindFieldsOf } from "@/lib/server/proposals/kind-review";
import { listPendingProposals } from "@/lib/server/proposals/list-pending-proposals";
import { isRefundDetail } from "@/lib/schemas/proposal-page";
import { stopProposalChanges } from "@/lib/server/realtime/proposal-changes";
import { actorFor, staffOf } from "../support/actors";
import { allowKindTool, startShopBehindEndpoint } from "../support/address-change-shop";
import { refusal } from "../support/refusal";
import { runJobsOnce } from "../support/run-jobs-once";
import { ES, US, ana, tokenFor, webKey } from "./gateway-support";

const TOOL = "prepare_contact_change";
const KIND = "update_customer_contact";

let stopShop: (() => Promise<void>) | undefined;
let control: ShopControl;
const callers: Record<string, AgentCaller> = {};
let reviewer: Actor;
let seq = 0;

async function call(tenant: string, args: unknown, tool = TOOL, customer = ana) {
  return executeToolCall(
    callers[tenant]!,
    {
      traceId: `contact-${randomUUID()}`,
      transport: "anthropic",
      callId: `toolu_c${++seq}`,
      endUserToken: await tokenFor(tenant, customer),
      model: null,
      promptVersion: null,
    },
    tool,
    args,
  );
}
const prepare = (field: string, newValue: string, tenant = ES) => call(tenant, { field, new_value: newValue });

/** A success answer's result (a failure has none: the test fails on it). */
function resultOf(outcome: { code: string }): Record<string, unknown> {
  if (!("result" in outcome)) throw new Error(`expected a result, got ${JSON.stringify(outcome)}`);
  return outcome.result as Record<string, unknown>;
}

const tenantId = async (slug: string) => (await db().tenant.findUniqueOrThrow({ where: { slug } })).id;
/** Sets ana's e-mail on record in `tenant` (as the shop's Orders API would push it): a value unique to the test. */
async function setEmail(value: string, tenant = ES) {
  await db().customer.update({
    where: { tenantId_id: { tenantId: await tenantId(tenant), id: ana } },
    data: { email: value },
  });
}
const emailOf = async (tenant = ES) =>
  (await db().customer.findUniqueOrThrow({ where: { tenantId_id: { tenantId: await tenantId(tenant), id: ana } } }))
    .email;
const unique = (label: string) => `${label}.${Date.now().toString(36)}${++seq}@example.com`;
/**
 * A unique value whose keyed fingerprint holds a run of 9+ digits: the redaction alone would take those for a phone
 * number and scrub the fingerprint again (`fp:fp:…`, no longer searchable). The kind declares the fingerprints it
 * made (HandlerResult.madeFingerprints), so the audit writer must keep them exactly as they are.
 */
function digitRunFingerprint(label: string): string {
  for (;;) {
    const value = unique(label);
    const fp = auditFingerprint(value.toLowerCase());
    if ((redact({ v: fp }, auditFingerprint).data as { v: string }).v !== fp) return value;
  }
}
const proposalOf = (id: string) => db().proposal.findUniqueOrThrow({ where: { id } });
const customerProposals = (tenant: string) =>
  tenantId(tenant).then((t) =>
    db().proposal.findMany({
      where: {
        tenantId: t,
        kind: KIND,
        AND: [{ subject: { path: ["type"], equals: "customer" } }, { subject: { path: ["ref"], equals: ana } }],
      },
      orderBy: { createdAt: "asc" },
    }),
  );
/** The shop's actions about ana (newest first). */
const shopActions = async () => (await control.actions({ orderNumber: ana })).data;
/** Audit rows, read raw (every column as text), that contain `value` in any case. */
async function auditRowsContaining(value: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM "AuditEvent" a WHERE strpos(lower(a::text), lower(${value})) > 0`.execute(sqlPool());
  return rows[0]!.n;
}

beforeAll(async () => {
  ({ control, stop: stopShop } = await startShopBehindEndpoint(ES));
  await allowKindTool([ES, US], TOOL);
  for (const tenant of [ES, US]) {
    const auth = await authenticateAgentKey(`Bearer ${webKey(tenant)}`);
    if (!auth.ok) throw new Error(`demo agent key of ${tenant} refused`);
    callers[tenant] = auth.caller;
  }
  // The other tenant has a customer whose id is ana's (each shop numbers its own customers).
  await db().customer.create({
    data: { id: ana, tenantId: await tenantId(US), name: "Ana García (US)", email: "ana.twin@shop-us.example" },
  });
  reviewer = await actorFor(staffOf(ES, "reviewer").email);
});

afterAll(async () => {
  await stopProposalChanges();
  await stopShop?.();
});

beforeEach(async () => {
  await control.clearFaults();
});

describe("prepare_contact_change", () => {
  it("happy path: the reviewer sees the customer, the field, the value on record masked and the new one; executed once on the shop; our row follows", async () => {
    const before = unique("ana.before");
    const after = unique("ana.after");
    await setEmail(before);
    const { outcome, proposal } = await prepare("email", `  ${after.replace("@example.com", "@EXAMPLE.com")} `);
    const result = resultOf(outcome);
    expect(outcome.code).toBe("approval_required");
    expect(result).toMatchObject({ kind: KIND, customer_id: ana, field: "email", after, approvals_required: 1 });
    expect(result.before).toBe("a•••@e•••.com");
    const row = await proposalOf(proposal!.id);
    expect(row).toMatchObject({
      kind: KIND,
      hashVersion: KIND_HASH_VERSION,
      status: P.pendingApproval,
      subject: { type: "customer", ref: ana },
      orderId: null,
      customerId: ana,
      requiredApprovals: 1,
    });
    expect(storedProposalIntact(row)).toBe(true);
    // The hashed params hold the masked value on record, never the value itself; the source its keyed fingerprint.
    expect(JSON.stringify([row.params, row.source])).not.toContain(before);
    expect(row.source).toEqual({ field: "email", before: auditFingerprint(before.toLowerCase()) });
    expect(kindFieldsOf(KIND, row.params)).toEqual([
      { key: "customer", before: null, after: "Ana García", changed: false },
      { key: "email", before: "a•••@e•••.com", after, changed: true },
    ]);

    // Asked again with the same value: the same proposal.
    expect((await prepare("email", after)).proposal?.id).toBe(proposal!.id);
    expect(await approveProposal(reviewer, { proposalId: row.id, hash: row.hash })).toMatchObject({
      status: P.approved,
    });
    await runJobsOnce();
    expect(await db().execution.findUniqueOrThrow({ where: { proposalId: row.id } })).toMatchObject({
      status: E.succeeded,
      attempts: 1,
    });
    expect((await proposalOf(row.id)).status).toBe(P.succeeded);
    const sent = await shopActions();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      kind: KIND,
      status: "succeeded",
      request: { subject: { type: "customer", ref: ana }, params: { field: "email", after } },
    });
    expect(await emailOf()).toBe(after);
    expect(await executeApprovedProposal(row.id)).toBe("already_started");
    expect(await shopActions()).toHaveLength(1);
  });

  it("refuses an invalid e-mail address or phone number naming $.new_value, and the value already on record; nothing is created", async () => {
    const onRecord = unique("ana.same");
    await setEmail(onRecord);
    const before = await customerProposals(ES);
    for (const [field, value] of [
      ["email", "ana.example.com"],
      ["email", "ana@example"],
      ["email", "ana@exa mple.com"],
      ["phone", "612345678"],
      ["phone", "+34 12"],
      ["phone", "+999 1234567"],
    ] as const) {
      const { outcome, proposal } = await prepare(field, value);
      expect(outcome, `${field} ${value}`).toMatchObject({
        code: "invalid_arguments",
        error: { problems: [{ path: "$.new_value" }] },
      });
      expect(proposal).toBeFalsy();
    }
    // The same value (in another case) is no change.
    expect((await prepare("email", onRecord.toUpperCase())).outcome).toMatchObject({
      code: "invalid_arguments",
      error: { reason: "value_unchanged", problems: [{ path: "$.new_value" }] },
    });
    expect(await customerProposals(ES)).toEqual(before);
  });

  it("a phone number: from none on record to the new one (E.164), approved, carried out once, our row follows; the same again is no change; changed elsewhere invalidates (phone_changed)", async () => {
    const ids = { tenantId: await tenantId(ES), id: ana };
    await db().customer.update({ where: { tenantId_id: ids }, data: { phone: null } });
    const { outcome, proposal } = await prepare("phone", "+34 612 34 56 78");
    expect(resultOf(outcome)).toMatchObject({ field: "phone", before: null, after: "+34612345678" });
    const row = await proposalOf(proposal!.id);
    expect(row.source).toEqual({ field: "phone", before: null });
    expect(kindFieldsOf(KIND, row.params)).toEqual([
      { key: "customer", before: null, after: "Ana García", changed: false },
      { key: "phone", before: null, after: "+34612345678", changed: true },
    ]);
    await approveProposal(reviewer, { proposalId: row.id, hash: row.hash });
    await runJobsOnce();
    expect((await proposalOf(row.id)).status).toBe(P.succeeded);
    expect((await shopActions())[0]).toMatchObject({
      request: { subject: { type: "customer", ref: ana }, params: { field: "phone", after: "+34612345678" } },
    });
    expect((await db().customer.findUniqueOrThrow({ where: { tenantId_id: ids } })).phone).toBe("+34612345678");
    // On record now: the same number is no change.
    expect((await prepare("phone", "+34612345678")).outcome).toMatchObject({
      code: "invalid_arguments",
      error: { reason: "value_unchanged" },
    });
    // Another number, then the shop changes it elsewhere before approval: invalidated, nothing sent.
    const next = (await prepare("phone", "+34 699 00 11 22")).proposal!;
    const nextRow = await proposalOf(next.id);
    expect(nextRow.source).toEqual({ field: "phone", before: auditFingerprint("+34612345678") });
    const sent = (await shopActions()).length;
    await db().customer.update({ where: { tenantId_id: ids }, data: { phone: "+34600000000" } });
    expect(await refusal(approveProposal(reviewer, { proposalId: nextRow.id, hash: nextRow.hash }))).toMatchObject({
      code: "invalidated",
    });
    expect(await proposalOf(nextRow.id)).toMatchObject({ invalidationReason: "phone_changed" });
    expect(await shopActions()).toHaveLength(sent);
  });

  it("the reviewer's page and queue row: the customer, the field, the masked value on record → the new one (no order)", async () => {
    await setEmail(unique("ana.page"));
    const after = unique("ana.page-new");
    const { proposal } = await prepare("email", after);
    const page = await getProposal(reviewer, proposal!.id);
    expect(page).toMatchObject({ kind: KIND, hash: proposal!.hash, hashIntact: true });
    if (isRefundDetail(page)) throw new Error("not the kind's page");
    expect(page.review.fields).toEqual([
      { key: "customer", before: null, after: "Ana García", changed: false },
      { key: "email", before: "a•••@e•••.com", after, changed: true },
    ]);
    expect(page.review.sentence).toEqual({ customer: "Ana García", field: "email", value: after });
    const row = (await listPendingProposals(reviewer, {})).rows.find((r) => r.id === proposal!.id);
    expect(row).toMatchObject({ kind: KIND, amountMinor: null, summary: `Ana García: ${after}` });
    const foreign = await actorFor(staffOf(US, "reviewer").email);
    expect(await refusal(getProposal(foreign, proposal!.id))).toMatchObject({ code: "not_found" });
  });

  it("one pending proposal per customer: another value replaces the pending one", async () => {
    await setEmail(unique("ana.now"));
    const first = (await prepare("email", unique("ana.first"))).proposal!;
    const secondValue = unique("ana.second");
    const second = (await prepare("email", secondValue)).proposal!;
    expect(second.id).not.toBe(first.id);
    expect(await proposalOf(first.id)).toMatchObject({
      status: P.invalidated,
      invalidationReason: "replaced_by_new_value",
    });
    const pending = (await customerProposals(ES)).filter((p) => p.status === P.pendingApproval);
    expect(pending.map((p) => p.id)).toEqual([second.id]);
  });

  it("another tenant's customer with the same id is another customer: derived from, and changing, only the caller's tenant's row", async () => {
    const esValue = unique("ana.es");
    await setEmail(esValue);
    const usValue = await emailOf(US);
    // ES ana asking for the US twin's value: a change (ES's row is read), with ES's value masked as before.
    const es = await prepare("email", usValue);
    expect(resultOf(es.outcome)).toMatchObject({ before: "a•••@e•••.com", after: usValue });
    // The US twin asking for its own value: unchanged (its own row); asking for ES's: a change of the US row, which
    // its tenant cannot carry out (no action endpoint) — and ES's pending proposal is untouched by either.
    expect((await prepare("email", usValue, US)).outcome).toMatchObject({ error: { reason: "value_unchanged" } });
    expect((await prepare("email", esValue, US)).outcome).toMatchObject({
      code: "permission_denied",
      error: { reason: "action_endpoint_not_configured" },
    });
    expect(await customerProposals(US)).toEqual([]);
    expect((await proposalOf(es.proposal!.id)).status).toBe(P.pendingApproval);
    // Another tenant's status tool does not see it.
    expect(
      (await call(US, { proposal_id: es.proposal!.id, wait_seconds: null }, "get_action_status")).outcome,
    ).toMatchObject({
      code: "not_found",
    });
    // Executed: ES's row takes the value, the US twin's stays.
    const row = await proposalOf(es.proposal!.id);
    await approveProposal(reviewer, { proposalId: row.id, hash: row.hash });
    await runJobsOnce();
    expect((await proposalOf(row.id)).status).toBe(P.succeeded);
    expect(await emailOf()).toBe(usValue);
    expect(await emailOf(US)).toBe(usValue);
    expect(
      await db().customer.findUniqueOrThrow({ where: { tenantId_id: { tenantId: await tenantId(US), id: ana } } }),
    ).toMatchObject({ name: "Ana García (US)" });
  });

  it("the value changed elsewhere before approval invalidates it (email_changed); nothing is sent", async () => {
    await setEmail(unique("ana.orig"));
    const { proposal } = await prepare("email", unique("ana.wanted"));
    const row = await proposalOf(proposal!.id);
    const sentBefore = (await shopActions()).length;
    // The shop's own back office changed it meanwhile (pushed to our copy).
    await setEmail(unique("ana.elsewhere"));
    expect(await refusal(approveProposal(reviewer, { proposalId: row.id, hash: row.hash }))).toMatchObject({
      code: "invalidated",
    });
    expect(await proposalOf(row.id)).toMatchObject({ status: P.invalidated, invalidationReason: "email_changed" });
    await runJobsOnce();
    expect(await db().execution.count({ where: { proposalId: row.id } })).toBe(0);
    expect(await shopActions()).toHaveLength(sentBefore);
  });

  it("the value changed elsewhere after approval, before execution: the executor ends it unsent", async () => {
    await setEmail(unique("ana.orig"));
    const { proposal } = await prepare("email", unique("ana.wanted"));
    const row = await proposalOf(proposal!.id);
    const sentBefore = (await shopActions()).length;
    await approveProposal(reviewer, { proposalId: row.id, hash: row.hash });
    const elsewhere = unique("ana.elsewhere");
    await setEmail(elsewhere);
    expect(await executeApprovedProposal(row.id)).toBe("revalidation_failed");
    expect(await proposalOf(row.id)).toMatchObject({ status: P.invalidated, invalidationReason: "email_changed" });
    expect(await shopActions()).toHaveLength(sentBefore);
    expect(await emailOf()).toBe(elsewhere);
  });

  it("the audit table never holds the old or the new value (raw rows searched), only their keyed fingerprints", async () => {
    const before = digitRunFingerprint("ana.secret-before");
    const after = digitRunFingerprint("ana.secret-after");
    const badPhone = "+34 999";
    await setEmail(before);
    const { proposal } = await prepare("email", after);
    await prepare("email", after); // reused
    await prepare("phone", badPhone); // refused, the raw argument not kept either
    const row = await proposalOf(proposal!.id);
    await approveProposal(reviewer, { proposalId: row.id, hash: row.hash });
    await runJobsOnce();
    expect((await proposalOf(row.id)).status).toBe(P.succeeded);
    expect(await emailOf()).toBe(after);

    // Only the field is kept in clear (the redaction scrubs the value as known personal data besides).
    expect(kindToolHandlers.prepare_contact_change.auditClear).toEqual(["field"]);
    const events = await db().auditEvent.findMany({ where: { proposalId: row.id } });
    expect(events.length).toBeGreaterThan(0);
    for (const value of [before, after, before.split("@")[0]!, after.split("@")[0]!, badPhone]) {
      expect(await auditRowsContaining(value), value).toBe(0);
    }
    const written = JSON.stringify(
      (await db().auditEvent.findMany({ where: { traceId: row.traceId } })).map((e) => e.data),
    );
    expect(written).toContain(auditFingerprint(after.toLowerCase()));
    expect(written).toContain(auditFingerprint(before.toLowerCase()));
    expect(written).not.toContain("fp:fp:");
    // Searchable: an auditor finds the change by either value's fingerprint.
    const prepared = events.find(
      (e) => e.action === "tool:prepare_contact_change" && e.outcome === "approval_required",
    );
    expect(prepared?.fingerprints).toEqual(
      expect.arrayContaining([auditFingerprint(after.toLowerCase()), auditFingerprint(before.toLowerCase())]),
    );
  });
});
