// The tenant is part of every tool's WHERE, not only the customer. An end-user token names its customer by the
// shop's own id (`sub`), and two shops can use the same ids: here shop-us's agent presents a valid shop-us token
// whose `sub` is tienda-es's customer Ana. Each tool must answer as if Ana had nothing at shop-us (her tienda-es
// order, proposal and customer row are not found there), and the same calls through tienda-es's key work — so the
// refusal comes from the tenant condition, not from anything else missing.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { ES, US, ana, anthropicCall, freshTrace, headersFor, send, tokenFor, webKey } from "./gateway-support";
import { freshCardOrder, prepareThroughGateway } from "./proposal-support";

/** A tool call as tienda-es's own agent (Ana signed in there), or as shop-us's agent with a token claiming Ana. */
const as = async (tenant: typeof ES | typeof US, name: string, input: unknown) =>
  send(
    anthropicCall(name, input),
    headersFor({ key: webKey(tenant), token: await tokenFor(tenant, ana), trace: freshTrace() }),
  );

describe("tenant scope of the tools (same customer id claimed at another shop)", () => {
  it("lookup_order: Ana's tienda-es order is not_found through shop-us, found through tienda-es", async () => {
    const order = await freshCardOrder(4_321, { prefix: "SCOPE" });
    const foreign = await as(US, "lookup_order", { order_id: order.number });
    expect(foreign.content.code).toBe("not_found");
    expect(foreign.raw).not.toContain("4321");
    const own = await as(ES, "lookup_order", { order_id: order.number });
    expect(own.content.code).toBe("ok");
    expect(own.content.result).toMatchObject({ order_id: order.number, refundable: { minor: 4_321, currency: "EUR" } });
  });

  it("get_refund_status: Ana's tienda-es proposal is not_found through shop-us, answered through tienda-es", async () => {
    const order = await freshCardOrder(2_468, { prefix: "SCOPE" });
    const proposal = await prepareThroughGateway(order.number);
    const foreign = await as(US, "get_refund_status", { proposal_id: proposal.id });
    expect(foreign.content.code).toBe("not_found");
    expect(foreign.raw).not.toContain(order.number);
    expect(foreign.raw).not.toContain(proposal.hash);
    const own = await as(ES, "get_refund_status", { proposal_id: proposal.id });
    expect(own.content.code).toBe("approval_required");
    expect(own.content.result).toMatchObject({ proposal_id: proposal.id, order_id: order.number });
  });

  it("get_refund_status expires a stale proposal only at its own shop: shop-us cannot expire Ana's tienda-es proposal", async () => {
    const order = await freshCardOrder(1_357, { prefix: "SCOPE" });
    const proposal = await prepareThroughGateway(order.number);
    // Past its expiry, still pending: the next get_refund_status at its own shop marks it expired.
    await db().proposal.update({ where: { id: proposal.id }, data: { expiresAt: new Date(Date.now() - 60_000) } });
    const foreign = await as(US, "get_refund_status", { proposal_id: proposal.id });
    expect(foreign.content.code).toBe("not_found");
    expect((await db().proposal.findUniqueOrThrow({ where: { id: proposal.id } })).status).toBe("pending_approval");
    const own = await as(ES, "get_refund_status", { proposal_id: proposal.id });
    expect(own.content.code).toBe("expired");
    expect((await db().proposal.findUniqueOrThrow({ where: { id: proposal.id } })).status).toBe("expired");
  });

  it("create_support_ticket: shop-us cannot file a ticket for tienda-es's customer (and learns nothing about her)", async () => {
    const input = { category: "billing", priority: "low", summary: "Where is my refund?" };
    const before = await db().supportTicket.count({ where: { customerId: ana } });
    const foreign = await as(US, "create_support_ticket", input);
    expect(foreign.content.code).toBe("permission_denied");
    expect(foreign.raw).not.toMatch(/Ana|García/);
    expect(await db().supportTicket.count({ where: { customerId: ana } })).toBe(before);
    const own = await as(ES, "create_support_ticket", input);
    expect(own.content.code).toBe("ok");
    const ticket = await db().supportTicket.findUniqueOrThrow({ where: { id: String(own.content.result!.ticket_id) } });
    expect(ticket).toMatchObject({ customerId: ana, category: "billing", priority: "low", status: "open" });
    expect((await db().tenant.findUniqueOrThrow({ where: { id: ticket.tenantId } })).slug).toBe(ES);
  });
});
