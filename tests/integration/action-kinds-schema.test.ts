// The Proposal table holds every action kind (docs/action-kinds.md; migration 20261205030000_action_kinds): what the
// database itself guarantees, whichever code writes — a refund always has its refund columns, a subject is {type,
// ref}, a v5 proposal carries its params, one pending proposal per (tenant, kind, subject), the release before kinds
// can still insert its refunds, and decision webhooks are named after the kind without the function knowing any.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { computeProposalHash, KIND_HASH_VERSION } from "@/lib/domain/proposal-hash";
import { db } from "@/lib/server/db/client";
import { sqlPool } from "@/lib/server/db/pg";
import { sql } from "@/lib/server/db/sql";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import { actorFor, staffOf } from "../support/actors";
import { customerId } from "../../scripts/lib/demo-data";
import { createPaidOrder, createProposalRow } from "../../scripts/lib/fixtures";

const ES = "tienda-es";
const US = "shop-us";
const ana = customerId(ES, "ana");
const inAnHour = () => new Date(Date.now() + 60 * 60_000);

type Tenant = Awaited<ReturnType<typeof tenantOf>>;
const tenantOf = (slug: string) => db().tenant.findUniqueOrThrow({ where: { slug } });
let es: Tenant;
let us: Tenant;
beforeAll(async () => {
  es = await tenantOf(ES);
  us = await tenantOf(US);
});

const paidOrder = (tenant: Tenant, customer = ana) =>
  createPaidOrder(db(), tenant, { customerId: customer, amountMinor: 5_000, prefix: "ORD-K" });

/** A proposal of a kind that is not the refund, as the kinds write it: hash v5, its params, no refund columns. */
async function insertKind(
  tenant: Tenant,
  o: {
    kind?: string;
    subject?: unknown;
    params?: unknown;
    status?: string;
    orderId?: string | null;
    channelId?: string | null;
  } = {},
) {
  const id = randomUUID();
  const subject = o.subject ?? { type: "order", ref: randomUUID() };
  const params = o.params === undefined ? { after: { city: "Paris" } } : o.params;
  const expiresAt = inAnHour();
  // A subject or params the hash refuses still reach the database (what the database refuses on its own is the point).
  let hash = "0".repeat(64);
  try {
    hash = computeProposalHash({
      v: KIND_HASH_VERSION,
      id,
      tenantId: tenant.id,
      kind: o.kind ?? "test_kind",
      tool: "prepare_test_kind",
      subject: subject as { type: string; ref: string },
      params: (params ?? {}) as Record<string, string>,
      source: null,
      reason: "",
      expiresAt,
      requiredApprovals: 1,
      policyVersion: 1,
    });
  } catch {
    // keep the placeholder
  }
  await sql`
    INSERT INTO "Proposal" ("id", "tenantId", "kind", "tool", "subject", "params", "orderId", "channelId", "reason", "status",
                            "hash", "hashVersion", "expiresAt", "requiredApprovals", "policyVersion", "traceId", "updatedAt")
    VALUES (${id}::uuid, ${tenant.id}::uuid, ${o.kind ?? "test_kind"}, 'prepare_test_kind', ${JSON.stringify(subject)}::jsonb,
            ${params === null ? null : JSON.stringify(params)}::jsonb, ${o.orderId ?? null}::uuid, ${o.channelId ?? null}::uuid,
            '', ${o.status ?? "pending_approval"}::"ProposalStatus", ${hash}, 5, ${expiresAt}, 1, 1, ${`kind-${id}`}, now())`.execute(
    sqlPool(),
  );
  return id;
}

/** The PostgreSQL error code a statement failed with (23514 check, 23505 unique; Prisma's P2002 is a 23505). */
async function failsWith(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (e) {
    const err = e as { code?: string; cause?: { code?: string } };
    const code = String(err.code ?? err.cause?.code);
    return code === "P2002" ? "23505" : code;
  }
  return "no error";
}

describe("Proposal: every action kind in one table", () => {
  it("a proposal of another kind needs none of the refund's columns; a refund cannot lack any of them", async () => {
    const id = await insertKind(es);
    expect(await db().proposal.findUniqueOrThrow({ where: { id } })).toMatchObject({
      kind: "test_kind",
      amountMinor: null,
      paymentId: null,
      recipientRef: null,
      hashVersion: 5,
    });
    const order = await paidOrder(es);
    const refund = await createProposalRow(db(), es, order, { customerId: ana, expiresAt: inAnHour() });
    for (const column of ["amountMinor", "paymentId", "recipientRef", "recipientDisplay", "orderId", "customerId"]) {
      const code = await failsWith(() =>
        sql`UPDATE "Proposal" SET ${sql.ref(column)} = NULL WHERE id = ${refund.id}::uuid`.execute(sqlPool()),
      );
      expect(code, column).toBe("23514");
    }
    // Nor can a refund's kind be changed away from the row that has them — or a kind's row become a refund.
    expect(
      await failsWith(() => sql`UPDATE "Proposal" SET "kind" = 'refund' WHERE id = ${id}::uuid`.execute(sqlPool())),
    ).toBe("23514");
  });

  it("a subject is {type, ref} with both non-empty, and a v5 proposal carries its params", async () => {
    for (const subject of [{ type: "order", ref: "" }, { type: "", ref: "x" }, { ref: "x" }, ["order", "x"], "order"]) {
      expect(await failsWith(() => insertKind(es, { subject })), JSON.stringify(subject)).toBe("23514");
    }
    expect(await failsWith(() => insertKind(es, { params: null }))).toBe("23514");
    expect(await failsWith(() => insertKind(es, { params: ["a"] }))).toBe("23514");
  });

  it("one pending proposal per (tenant, kind, subject): another kind, another subject or another tenant may have theirs", async () => {
    const subject = { type: "order", ref: randomUUID() };
    await insertKind(es, { subject });
    expect(await failsWith(() => insertKind(es, { subject }))).toBe("23505");
    // Decided proposals do not count.
    await insertKind(es, { subject, status: "rejected" });
    await insertKind(es, { subject, kind: "other_kind" });
    await insertKind(es, { subject: { ...subject, type: "customer" } });
    await insertKind(us, { subject });
    // A refund's subject is its order: a second pending refund of the same order is refused as before.
    const order = await paidOrder(es);
    await createProposalRow(db(), es, order, { customerId: ana, expiresAt: inAnHour() });
    expect(await failsWith(() => createProposalRow(db(), es, order, { customerId: ana, expiresAt: inAnHour() }))).toBe(
      "23505",
    );
    // …while a proposal of another kind on the same order is its own.
    await insertKind(es, { subject: { type: "order", ref: order.orderId }, orderId: order.orderId });
  });

  it("the release before kinds still inserts its refunds: the kind defaults to refund and the subject to the order", async () => {
    const order = await paidOrder(es);
    const id = randomUUID();
    // The columns that release writes (no kind, no subject, no params).
    await sql`
      INSERT INTO "Proposal" ("id", "tenantId", "orderId", "customerId", "paymentId", "amountMinor", "currency", "recipientKind",
                              "recipientRef", "recipientHolder", "recipientDisplay", "reason", "hash", "expiresAt", "traceId", "updatedAt")
      VALUES (${id}::uuid, ${es.id}::uuid, ${order.orderId}::uuid, ${ana}, ${order.paymentId}::uuid, 5000, 'EUR', 'card',
              ${order.paymentRef}, 'Ana', 'Visa •••• 4242', 'other', ${"0".repeat(64)}, ${inAnHour()}, 'old-release', now())`.execute(
      sqlPool(),
    );
    expect(await db().proposal.findUniqueOrThrow({ where: { id } })).toMatchObject({
      kind: "refund",
      subject: { type: "order", ref: order.orderId },
      params: null,
    });
  });

  it("decision webhooks are named after the kind and carry the amount only when there is one", async () => {
    const channel = await db().channel.findFirstOrThrow({ where: { tenantId: es.id } });
    const before = channel.decisionWebhookUrl;
    await db().channel.update({
      where: { id: channel.id },
      data: { decisionWebhookUrl: "https://hooks.example.com/d" },
    });
    try {
      const subject = { type: "order", ref: randomUUID() };
      const id = await insertKind(es, { subject, status: "executing", channelId: channel.id });
      await sql`UPDATE "Proposal" SET status = 'succeeded' WHERE id = ${id}::uuid`.execute(sqlPool());
      await sql`UPDATE "Proposal" SET status = 'needs_reconciliation' WHERE id = ${id}::uuid`.execute(sqlPool());
      const rows = await db().webhookDelivery.findMany({ where: { proposalId: id }, orderBy: { createdAt: "asc" } });
      expect(rows.map((r) => r.event).sort()).toEqual(["test_kind.in_doubt", "test_kind.succeeded"]);
      const data = (rows[0]!.payload as { data: Record<string, unknown> }).data;
      expect(data).toMatchObject({ proposal_id: id, kind: "test_kind", subject });
      expect(data).not.toHaveProperty("amount");
      expect(data).not.toHaveProperty("order_id");
    } finally {
      await db().channel.update({ where: { id: channel.id }, data: { decisionWebhookUrl: before } });
    }
  });

  it("approval asks the proposal's kind to revalidate through the registry; a kind this release does not know is refused, not approved", async () => {
    const id = await insertKind(es, { kind: "kind_of_a_newer_release" });
    const row = await db().proposal.findUniqueOrThrow({ where: { id } });
    const reviewer = await actorFor(staffOf(ES, "reviewer").email);
    await expect(approveProposal(reviewer, { proposalId: id, hash: row.hash })).rejects.toMatchObject({
      code: "temporarily_unavailable",
      details: expect.objectContaining({ reason: "unknown_kind" }),
    });
    expect(await db().proposal.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "pending_approval" });
    expect(await db().approval.count({ where: { proposalId: id } })).toBe(0);
  });
});
