// Hash v4 (issue #34 finding 4): what the reviewer reads is what is hashed. Every value the queue, the proposal
// page and the approve dialog present as the action comes from hashed columns; each one changed in the database
// behind the hash makes the approval refused. Through the Orders API a changed payment display invalidates the
// proposal (it is the recipient), a changed customer name or item list is shown as "changed since prepared" beside
// the hashed values. v1–v3 rows keep verifying and approving. Real route handlers, real database.
import { describe, expect, it } from "vitest";
import { PUT as orderPUT } from "@/app/api/v1/orders/[number]/route";
import { verifyEvidencePack } from "@/lib/domain/evidence-pack";
import { recomputeProposalHash } from "@/lib/domain/proposal-hash";
import { buildEvidencePack } from "@/lib/server/audit/build-evidence-pack";
import { integratePending } from "@/lib/server/audit/sequencer";
import { auditPublicKey } from "@/lib/server/audit/signing-key";
import { db } from "@/lib/server/db/client";
import { sqlPool } from "@/lib/server/db/pg";
import { sql } from "@/lib/server/db/sql";
import { issueIntegrationKey } from "@/lib/server/integrations/issue-integration-key";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import { getRefundDetail } from "@/lib/server/proposals/get-proposal";
import { listPendingProposals } from "@/lib/server/proposals/list-pending-proposals";
import { actorFor, staffOf } from "../support/actors";
import { refusal } from "../support/refusal";
import { createPaidOrder, createProposalRow } from "../../scripts/lib/fixtures";
import { ana, anthropicCall, ES, headersFor, send, tokenFor } from "./gateway-support";

let seq = 0;
const fresh = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++seq}`;
const reviewer = () => actorFor(staffOf(ES, "reviewer", 0).email);

let key: string | null = null;
async function orderKey(): Promise<string> {
  key ??= (
    await issueIntegrationKey(await actorFor(staffOf(ES, "admin").email), {
      label: "Shop",
      scopes: ["orders:write", "orders:read"],
    })
  ).key;
  return key;
}

type OrderBody = ReturnType<typeof orderBody>;
function orderBody(customer: string) {
  return {
    customer: { id: customer, email: "jane.doe@example.com", name: "Jane Doe" },
    currency: "EUR",
    total_minor: 5000,
    status: "paid",
    placed_at: "2026-11-30T10:00:00Z",
    items: [
      { sku: "MUG-1", name: "Mug", quantity: 1, unit_minor: 3000 },
      { sku: "CUP-2", name: "Cup", quantity: 2, unit_minor: 1000 },
    ],
    payments: [
      {
        provider: "manual",
        reference: `pay_${fresh("m")}`,
        method: "bank_transfer",
        captured_minor: 5000,
        holder: "Jane Doe",
        display: "IBAN ES•• 4321",
      },
    ],
    refunds: [],
  };
}

async function put(number: string, body: OrderBody) {
  const res = await orderPUT(
    new Request(`http://localhost/api/v1/orders/${number}`, {
      method: "PUT",
      headers: { "content-type": "application/json", authorization: `Bearer ${await orderKey()}` },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({ number }) },
  );
  expect(res.status).toBeLessThan(300);
  return (await res.json()) as { changed: boolean };
}

/** A pushed order of a fresh customer and the proposal the agent prepared for it. */
async function prepared() {
  const number = fresh("ORD");
  const customer = `cus_v4_${fresh("c").replace(/-/g, "_")}`;
  const body = orderBody(customer);
  await put(number, body);
  const answer = await send(
    anthropicCall("prepare_refund", { order_id: number, reason: "damaged_item" }),
    headersFor({ token: await tokenFor(ES, customer) }),
  );
  expect(answer.content.code).toBe("approval_required");
  const id = (answer.content.result as { proposal_id: string }).proposal_id;
  return { number, body, proposal: await db().proposal.findUniqueOrThrow({ where: { id } }) };
}

describe("hash v4: a new proposal binds what the reviewer reads", () => {
  it("stores version 4 and the order snapshot; the page, the queue and the canonical JSON show the hashed values", async () => {
    const { number, proposal: p } = await prepared();
    expect(p).toMatchObject({
      hashVersion: 4,
      recipientDisplay: "IBAN ES•• 4321",
      orderNumber: number,
      customerName: "Jane Doe",
      orderItems: [
        { sku: "MUG-1", name: "Mug", quantity: 1, unitMinor: 3000 },
        { sku: "CUP-2", name: "Cup", quantity: 2, unitMinor: 1000 },
      ],
    });
    expect(recomputeProposalHash(p)).toBe(p.hash);
    const page = await getRefundDetail(await reviewer(), p.id);
    expect(page).toMatchObject({
      hashVersion: 4,
      hashIntact: true,
      changedSincePrepared: null,
      recipient: { display: "IBAN ES•• 4321", holder: "Jane Doe" },
      order: { number, customer: { name: "Jane Doe" } },
    });
    const canonical = JSON.parse(page.canonicalJson) as Record<string, unknown>;
    expect(canonical).toMatchObject({
      v: 4,
      recipient: { display: "IBAN ES•• 4321" },
      order: { number, customer: { name: "Jane Doe" }, items: page.order.items },
    });
    const queue = await listPendingProposals(await reviewer(), { limit: 100 });
    expect(queue.rows.find((r) => r.id === p.id)).toMatchObject({
      orderNumber: number,
      recipientDisplay: "IBAN ES•• 4321",
    });
  });

  it("an order row renamed in the database behind the proposal: the queue and the page still show the hashed number", async () => {
    const { number, proposal: p } = await prepared();
    await sql`UPDATE "Order" SET number = ${`${number}-X`} WHERE id = ${p.orderId}::uuid`.execute(sqlPool());
    const r = await reviewer();
    expect((await getRefundDetail(r, p.id)).order.number).toBe(number);
    const queue = await listPendingProposals(r, { limit: 100 });
    expect(queue.rows.find((row) => row.id === p.id)?.orderNumber).toBe(number);
  });
});

describe("hash v4: each presented field changed in the database behind the hash → the approval is refused", () => {
  // What the queue row, the proposal page, the approve dialog's sentence and the notifications present as the
  // action, each changed through the app's own database connection as an attacker with its role could.
  const tampers: [string, ReturnType<typeof sql>][] = [
    ["recipientDisplay", sql`"recipientDisplay" = 'IBAN DE89 •••• 0000 (attacker)'`],
    ["recipientHolder", sql`"recipientHolder" = 'Mallory'`],
    ["recipientKind", sql`"recipientKind" = 'card'`],
    ["recipientRef", sql`"recipientRef" = 'pay_attacker'`],
    ["amountMinor", sql`"amountMinor" = "amountMinor" - 1`],
    ["currency", sql`"currency" = 'USD'`],
    ["reason", sql`"reason" = 'other'`],
    ["expiresAt", sql`"expiresAt" = "expiresAt" + interval '1 hour'`],
    ["orderNumber", sql`"orderNumber" = 'ORD-OTHER'`],
    ["customerName", sql`"customerName" = 'Someone Else'`],
    ["orderItems", sql`"orderItems" = '[{"sku":"TV-1","name":"Television","quantity":1,"unitMinor":5000}]'::jsonb`],
    ["orderItems (malformed)", sql`"orderItems" = '"nope"'::jsonb`],
    ["hashVersion (downgrade to v3, which does not bind the display)", sql`"hashVersion" = 3`],
  ];
  it.each(tampers)("%s", async (_field, set) => {
    const { proposal: p } = await prepared();
    await sql`UPDATE "Proposal" SET ${set} WHERE id = ${p.id}::uuid`.execute(sqlPool());
    const r = await reviewer();
    expect((await getRefundDetail(r, p.id)).hashIntact).toBe(false);
    expect(await refusal(approveProposal(r, { proposalId: p.id, hash: p.hash }))).toMatchObject({
      code: "invalidated",
      reason: "stored_hash_mismatch",
    });
    expect(await db().proposal.findUniqueOrThrow({ where: { id: p.id } })).toMatchObject({
      status: "invalidated",
      invalidationReason: "stored_hash_mismatch",
    });
    expect(await db().approval.count({ where: { proposalId: p.id } })).toBe(0);
  });
});

describe("hash v4: the Orders API changes what the reviewer reads under a pending proposal", () => {
  it("a changed payment display is a changed recipient: the proposal is invalidated (recipient_changed), audited", async () => {
    const { number, body, proposal: p } = await prepared();
    const pushed = await put(number, {
      ...body,
      payments: [{ ...body.payments[0]!, display: "IBAN DE89 •••• 0000" }],
    });
    expect(pushed).toMatchObject({ changed: true });
    expect(await db().proposal.findUniqueOrThrow({ where: { id: p.id } })).toMatchObject({
      status: "invalidated",
      invalidationReason: "recipient_changed",
    });
    const event = await db().auditEvent.findFirstOrThrow({
      where: { proposalId: p.id, action: "proposal:invalidate" },
    });
    expect(event).toMatchObject({ authMethod: "integration_key", outcome: "invalidated" });
  });

  it("a changed customer name or item list is shown as changed since prepared; the hashed values stay what is approved", async () => {
    const { number, body, proposal: p } = await prepared();
    const items = [{ sku: "TV-1", name: "Television", quantity: 1, unit_minor: 5000 }];
    const pushed = await put(number, { ...body, customer: { ...body.customer, name: "Jane Roe" }, items });
    expect(pushed).toMatchObject({ changed: true });
    const r = await reviewer();
    const page = await getRefundDetail(r, p.id);
    expect(page).toMatchObject({
      status: "pending_approval",
      hashIntact: true,
      order: {
        number,
        customer: { name: "Jane Doe" },
        items: [
          { sku: "MUG-1", name: "Mug", quantity: 1, unitMinor: 3000 },
          { sku: "CUP-2", name: "Cup", quantity: 2, unitMinor: 1000 },
        ],
      },
      changedSincePrepared: {
        customerName: "Jane Roe",
        items: [{ sku: "TV-1", name: "Television", quantity: 1, unitMinor: 5000 }],
      },
    });
    // The reviewer approves what was prepared and hashed (shown with today's values beside it).
    expect(await approveProposal(r, { proposalId: p.id, hash: p.hash })).toMatchObject({ status: "approved" });
    const approval = await db().approval.findFirstOrThrow({ where: { proposalId: p.id } });
    expect(approval.proposalHash).toBe(p.hash);

    // Only the name changing is reported as only the name.
    const other = await prepared();
    await put(other.number, { ...other.body, customer: { ...other.body.customer, name: "Jane Roe" } });
    expect((await getRefundDetail(r, other.proposal.id)).changedSincePrepared).toEqual({
      customerName: "Jane Roe",
      items: null,
    });
  });
});

describe("v1–v3 proposals stay verifiable and approvable", () => {
  it.each([1, 2, 3])(
    "a stored v%i row (no order snapshot) recomputes to its hash, approves, and its pack verifies",
    async (version) => {
      // A row as the release of that version stored it: its fields, its version, its hash (and no prepare event
      // naming another hash), on a paid order of a demo customer.
      const tenant = await db().tenant.findUniqueOrThrow({ where: { slug: ES } });
      const order = await createPaidOrder(db(), tenant, { customerId: ana, amountMinor: 4_000, prefix: "L" });
      const row = await createProposalRow(db(), tenant, order, {
        customerId: ana,
        expiresAt: new Date(Date.now() + 30 * 60_000),
      });
      // v3's source names where the money is: the order's payment's provider (a different one is `payment_changed`).
      const { provider } = await db().payment.findUniqueOrThrow({ where: { id: row.paymentId } });
      const legacy = {
        ...row,
        hashVersion: version,
        policyVersion: version >= 2 ? 1 : null,
        sourceProvider: version >= 3 ? provider : null,
        sourceCapturedMinor: version >= 3 ? 4_000 : null,
        sourceRefundedMinor: version >= 3 ? 0 : null,
      };
      const hash = recomputeProposalHash(legacy);
      const { id: _id, ...data } = { ...legacy, hash };
      await db().proposal.update({
        where: { id: row.id },
        data: { ...data, subject: undefined, params: undefined, source: undefined, orderItems: undefined },
      });
      const stored = await db().proposal.findUniqueOrThrow({ where: { id: row.id } });
      expect(stored).toMatchObject({ hashVersion: version, orderNumber: null, customerName: null, orderItems: null });
      expect(recomputeProposalHash(stored)).toBe(hash);

      const r = await reviewer();
      const page = await getRefundDetail(r, row.id);
      expect(page).toMatchObject({ hashVersion: version, hashIntact: true, changedSincePrepared: null });
      // Before v4 nothing of the order was hashed: the page reads today's order, as it always did.
      expect(page.order.number).toBe(order.number);
      expect((JSON.parse(page.canonicalJson) as { v: number }).v).toBe(version);
      expect(await approveProposal(r, { proposalId: row.id, hash })).toMatchObject({ status: "approved" });

      // Its evidence pack verifies offline (what `npm run evidence:verify` runs) with the canonical JSON of its version.
      await integratePending();
      const { body } = await buildEvidencePack(await actorFor(staffOf(ES, "auditor").email), row.id);
      const verdict = await verifyEvidencePack(body, { publicKey: auditPublicKey().publicKey });
      expect(verdict.checks.filter((c) => !c.ok)).toEqual([]);
      const packed = JSON.parse(body) as { proposal: { hash: string; canonicalJson: string } };
      expect(packed.proposal.hash).toBe(hash);
      expect((JSON.parse(packed.proposal.canonicalJson) as { v: number }).v).toBe(version);
    },
  );
});
