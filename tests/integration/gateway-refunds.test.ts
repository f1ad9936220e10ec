// End users, order visibility and server-derived refund proposals, against the seeded database.
import { describe, expect, it } from "vitest";
import { computeProposalHash } from "@/lib/domain/proposal-hash";
import { db } from "@/lib/server/db/client";
import {
  ana,
  anthropicCall,
  channelSecret,
  ES,
  freshTrace,
  headersFor,
  john,
  openaiCall,
  pablo,
  send,
  signToken,
  tokenFor,
  US,
  webKey,
} from "./gateway-support";
import { asRefund } from "@/lib/domain/refund-row";

const OPEN = ["pending_approval", "approved", "executing", "needs_reconciliation"] as const;

async function prepare(order: string, token: string | null, reason = "damaged_item") {
  return send(anthropicCall("prepare_refund", { order_id: order, reason }), headersFor({ token, trace: freshTrace() }));
}

/** The answer without what legitimately differs between two calls (trace id, call id). */
function comparable(a: Awaited<ReturnType<typeof send>>) {
  return JSON.stringify({ code: a.content.code, error: a.content.error, is_error: a.body.is_error });
}

describe("prepare_refund", () => {
  it("own order + valid token → a pending proposal whose amount, currency and recipient come from the database", async () => {
    const r = await prepare("ORD-1003", await tokenFor(ES, pablo));
    expect(r.content.code).toBe("approval_required");
    expect(r.body.is_error).toBe(false);
    const result = r.content.result!;
    // ORD-1003: 200.00 captured, 50.00 already refunded.
    expect(result.amount).toEqual({ minor: 15_000, currency: "EUR" });
    expect(result.recipient).toEqual({ kind: "card", display: "Mastercard •••• 4444", holder: "Pablo Martín" });
    const row = asRefund(
      await db().proposal.findUniqueOrThrow({
        where: { id: String(result.proposal_id) },
        include: { order: { include: { customer: true } }, payment: true },
      }),
    );
    expect(row.status).toBe("pending_approval");
    expect(row.amountMinor).toBe(row.order.capturedMinor - 5_000);
    expect(row.recipientRef).toBe(row.payment.providerPaymentRef);
    expect(row.customerId).toBe(pablo);
    expect(result.hash).toBe(row.hash);
    expect(
      computeProposalHash({
        v: 4,
        id: row.id,
        tenantId: row.tenantId,
        tool: row.tool,
        orderId: row.orderId,
        amount: { minor: row.amountMinor, currency: row.currency },
        recipient: {
          kind: row.recipientKind,
          ref: row.recipientRef,
          holder: row.recipientHolder,
          display: "Mastercard •••• 4444",
        },
        reason: row.reason,
        expiresAt: row.expiresAt,
        requiredApprovals: row.requiredApprovals,
        policyVersion: row.policyVersion,
        // Hash v3: what the amount was derived from — the payment, its capture and what was refunded then.
        source: {
          provider: "stripe",
          paymentRef: row.recipientRef,
          capturedMinor: row.order.capturedMinor,
          refundedMinor: 5_000,
        },
        // Hash v4: the order as the reviewer reads it — its number, its customer, its items.
        order: {
          number: row.order.number,
          customer: { id: pablo, name: row.order.customer.name },
          items: row.order.items as { sku: string; name: string; quantity: number; unitMinor: number }[],
        },
      }),
    ).toBe(row.hash);
    expect(row.hashVersion).toBe(4);
    expect(row).toMatchObject({
      sourceProvider: "stripe",
      sourceCapturedMinor: row.order.capturedMinor,
      sourceRefundedMinor: 5_000,
    });
    expect(row.policyVersion).toBe(1); // hash v2: the tenant policy version it was prepared under
    const tenant = await db().tenant.findUniqueOrThrow({ where: { id: row.tenantId } });
    expect(
      Math.abs(row.expiresAt.getTime() - row.createdAt.getTime() - tenant.approvalExpiryMinutes * 60_000),
    ).toBeLessThan(5_000);
    expect(new Date(String(result.expires_at)).toISOString()).toBe(row.expiresAt.toISOString());
  });

  it("preparing again answers the same open proposal; the status tool reports it", async () => {
    const token = await tokenFor(ES, pablo);
    const a = await prepare("ORD-1004", token);
    const b = await prepare("ORD-1004", token, "other");
    expect(b.content.result!.proposal_id).toBe(a.content.result!.proposal_id);
    expect(b.content.result!.hash).toBe(a.content.result!.hash);
    // 720.00 ≥ the tenant's 500.00 threshold: two reviewers.
    expect(a.content.result!.approvals_required).toBe(2);
    const s = await send(
      anthropicCall("get_refund_status", { proposal_id: a.content.result!.proposal_id }),
      headersFor({ token, trace: freshTrace() }),
    );
    expect(s.content.code).toBe("approval_required");
    expect(s.content.result!.proposal_id).toBe(a.content.result!.proposal_id);
  });

  it("an expired pending proposal is superseded by a new one (new id, new hash)", async () => {
    const token = await tokenFor(US, john);
    const h = { ...headersFor({ key: webKey(US), token }), "x-trace-id": freshTrace() };
    const a = await send(anthropicCall("prepare_refund", { order_id: "ORD-2001", reason: "wrong_item" }), h);
    await db().proposal.update({
      where: { id: String(a.content.result!.proposal_id) },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const b = await send(anthropicCall("prepare_refund", { order_id: "ORD-2001", reason: "wrong_item" }), {
      ...h,
      "x-trace-id": freshTrace(),
    });
    expect(b.content.code).toBe("approval_required");
    expect(b.content.result!.proposal_id).not.toBe(a.content.result!.proposal_id);
    const newRow = await db().proposal.findUniqueOrThrow({ where: { id: String(b.content.result!.proposal_id) } });
    expect(newRow.supersedesId).toBe(a.content.result!.proposal_id);
    const old = await send(anthropicCall("get_refund_status", { proposal_id: a.content.result!.proposal_id }), {
      ...h,
      "x-trace-id": freshTrace(),
    });
    expect(old.content.code).toBe("expired");
  });

  it("nothing left to refund is a clear permission_denied", async () => {
    const token = await tokenFor(US, john);
    const order = await db().order.findFirstOrThrow({
      where: { number: "ORD-2002", tenant: { slug: US } },
      include: { payments: true },
    });
    await db().refund.create({
      data: {
        tenantId: order.tenantId,
        orderId: order.id,
        paymentId: order.payments[0]!.id,
        amountMinor: order.capturedMinor - 25_000,
        currency: "USD",
        status: "pending",
      },
    });
    const r = await send(
      anthropicCall("prepare_refund", { order_id: "ORD-2002", reason: "other" }),
      headersFor({ key: webKey(US), token, trace: freshTrace() }),
    );
    expect(r.content.code).toBe("permission_denied");
    expect(r.content.error!.message).toMatch(/Nothing is left to refund/);
  });

  it("20 concurrent prepare_refund for one order → one proposal; open sum ≤ refundable", async () => {
    const token = await tokenFor(ES, ana);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2
          ? prepare("ORD-1002", token)
          : send(
              openaiCall("prepare_refund", { order_id: "ORD-1002", reason: "not_received" }),
              headersFor({ token, trace: freshTrace() }),
            ),
      ),
    );
    const ids = new Set(answers.map((a) => a.content.result?.proposal_id));
    expect(answers.map((a) => a.content.code)).toEqual(Array(20).fill("approval_required"));
    expect(ids.size).toBe(1);
    const order = await db().order.findFirstOrThrow({ where: { number: "ORD-1002", tenant: { slug: ES } } });
    const open = (await db().proposal.findMany({ where: { orderId: order.id, status: { in: [...OPEN] } } })).map(
      asRefund,
    );
    expect(open).toHaveLength(1);
    const refunded = await db().refund.aggregate({
      where: { orderId: order.id, status: { in: ["succeeded", "pending"] } },
      _sum: { amountMinor: true },
    });
    expect(open.reduce((s, p) => s + p.amountMinor, 0)).toBeLessThanOrEqual(
      order.capturedMinor - (refunded._sum.amountMinor ?? 0),
    );
  });
});

describe("visibility: other customers and tenants", () => {
  it("another customer's order and another tenant's order are not_found, exactly like a nonexistent order", async () => {
    const token = await tokenFor(ES, ana);
    for (const tool of ["lookup_order", "prepare_refund"] as const) {
      const args = (order: string) =>
        tool === "lookup_order" ? { order_id: order } : { order_id: order, reason: "other" };
      const call = (order: string) =>
        send(
          { type: "tool_use", id: "toolu_same", name: tool, input: args(order) },
          headersFor({ token, trace: freshTrace() }),
        );
      const pablosOrder = await call("ORD-1003"); // same tenant, other customer
      const otherTenant = await call("ORD-2001"); // shop-us
      const nonexistent = await call("ORD-9999");
      for (const a of [pablosOrder, otherTenant, nonexistent]) {
        expect(a.content.code).toBe("not_found");
        expect(Object.keys(a.content.error!).sort()).toEqual(["message", "order_id"]);
      }
      expect(comparable(pablosOrder).replaceAll("ORD-1003", "ORD-9999")).toBe(comparable(nonexistent));
      expect(comparable(otherTenant).replaceAll("ORD-2001", "ORD-9999")).toBe(comparable(nonexistent));
      for (const leak of ["Pablo", "Mastercard", "4444", "20000", "15000", "John", "4999", "USD", "Coffee"]) {
        // The random traceId and call id aside (a trace id may contain "4444" by chance), nothing else is said.
        expect(comparable(pablosOrder) + comparable(otherTenant)).not.toContain(leak);
      }
    }
    expect(await db().proposal.count({ where: { endUserId: ana, order: { customerId: { not: ana } } } })).toBe(0);
    expect(
      await db().proposal.count({ where: { order: { number: { in: ["ORD-1003", "ORD-2001"] } }, endUserId: ana } }),
    ).toBe(0);
  });

  it("a proposal of another customer is not_found through get_refund_status", async () => {
    const mine = await prepare("ORD-1001", await tokenFor(ES, ana));
    const id = mine.content.result!.proposal_id;
    const other = await send(
      anthropicCall("get_refund_status", { proposal_id: id }),
      headersFor({ token: await tokenFor(ES, pablo), trace: freshTrace() }),
    );
    expect(other.content.code).toBe("not_found");
    expect(other.raw).not.toContain("Ana");
  });
});

describe("end users", () => {
  const order = { order_id: "ORD-1001" };

  it("anonymous callers get permission_denied for order tools", async () => {
    for (const [name, input] of [
      ["lookup_order", order],
      ["prepare_refund", { ...order, reason: "other" }],
      ["get_refund_status", { proposal_id: "6f1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e" }],
    ] as const) {
      const r = await send(anthropicCall(name, input), headersFor({ trace: freshTrace() }));
      expect(r.content.code).toBe("permission_denied");
    }
  });

  it("expired, wrong-secret, other-tenant and exp-less tokens are permission_denied (never silently anonymous)", async () => {
    const now = Math.floor(Date.now() / 1000);
    const tokens = {
      expired: await signToken({ sub: ana, tenant: ES }, channelSecret(ES, "web_support"), now - 60),
      wrongSecret: await signToken({ sub: ana, tenant: ES }, "not-the-channel-secret-000000000000"),
      otherTenant: await signToken({ sub: john, tenant: US }, channelSecret(US, "web_support")),
      otherTenantClaim: await signToken({ sub: ana, tenant: US }, channelSecret(ES, "web_support")),
      noExp: await signToken({ sub: ana, tenant: ES }, channelSecret(ES, "web_support"), null),
      garbage: "not.a.jwt",
    };
    for (const [label, token] of Object.entries(tokens)) {
      const r = await send(anthropicCall("lookup_order", order), headersFor({ token, trace: freshTrace() }));
      expect(r.content.code, label).toBe("permission_denied");
      // The precise reason per token is tested in gateway-end-user-tokens.test.ts.
      expect(r.content.error!.reason, label).toMatch(/^end_user_token_[a-z_]+$/);
      // Even a tool open to anonymous users refuses a bad token.
      const t = await send(
        anthropicCall("create_support_ticket", {
          category: "billing",
          summary: "Question about my invoice",
          priority: "low",
        }),
        headersFor({ token, trace: freshTrace() }),
      );
      expect(t.content.code, label).toBe("permission_denied");
    }
    expect(await db().supportTicket.count()).toBe(0);
  });
});

describe("create_support_ticket", () => {
  it("takes the customer from the token, or none for an anonymous user", async () => {
    const r = await send(
      anthropicCall("create_support_ticket", {
        category: "technical",
        summary: "The app crashes when I open my orders",
        priority: "normal",
      }),
      headersFor({ token: await tokenFor(ES, ana), trace: freshTrace() }),
    );
    expect(r.content.code).toBe("ok");
    const row = await db().supportTicket.findUniqueOrThrow({ where: { id: String(r.content.result!.ticket_id) } });
    expect(row).toMatchObject({ customerId: ana, category: "technical", priority: "normal", status: "open" });
    const anon = await send(
      anthropicCall("create_support_ticket", {
        category: "complaint",
        summary: "Nobody answered my email",
        priority: "low",
      }),
      headersFor({ trace: freshTrace() }),
    );
    expect(anon.content.code).toBe("ok");
    expect(
      (await db().supportTicket.findUniqueOrThrow({ where: { id: String(anon.content.result!.ticket_id) } }))
        .customerId,
    ).toBeNull();
  });
});
