// Per-trace budgets: counters in PostgreSQL, limit_exceeded stays spent for the trace.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { ana, anthropicCall, ES, freshTrace, headersFor, send, tokenFor } from "./gateway-support";

describe("budgets per trace", () => {
  it("identical repeats beyond the limit → limit_exceeded, which stays for the whole trace", async () => {
    const token = await tokenFor(ES, ana);
    const trace = freshTrace();
    const call = () => send(anthropicCall("lookup_order", { order_id: "ORD-1001" }), headersFor({ token, trace }));
    for (let i = 0; i < 5; i++) expect((await call()).content.code).toBe("ok");
    const sixth = await call();
    expect(sixth.content.code).toBe("limit_exceeded");
    expect(sixth.content.error!.budget).toBe("repeats");
    // A different, valid call on the same trace is still refused: the budget stays spent.
    const other = await send(anthropicCall("lookup_order", { order_id: "ORD-1002" }), headersFor({ token, trace }));
    expect(other.content.code).toBe("limit_exceeded");
    // Another trace is unaffected.
    expect(
      (await send(anthropicCall("lookup_order", { order_id: "ORD-1002" }), headersFor({ token, trace: freshTrace() })))
        .content.code,
    ).toBe("ok");
  });

  it("errors beyond the limit → limit_exceeded", async () => {
    const trace = freshTrace();
    for (let i = 0; i < 10; i++) {
      const r = await send(anthropicCall(`no_such_tool_${i}`, {}), headersFor({ trace }));
      expect(r.content.code).toBe("unknown_tool");
    }
    const r = await send(
      anthropicCall("create_support_ticket", {
        category: "billing",
        summary: "A question about my bill",
        priority: "low",
      }),
      headersFor({ trace }),
    );
    expect(r.content.code).toBe("limit_exceeded");
    expect(r.content.error!.budget).toBe("errors");
    expect(await db().supportTicket.count({ where: { traceId: trace } })).toBe(0);
  });

  it("total calls follow the tenant's policy (configurable, shared through the database)", async () => {
    const tenant = await db().tenant.findUniqueOrThrow({ where: { slug: ES } });
    await db().agentBudgetPolicy.create({
      data: { tenantId: tenant.id, maxCallsPerTrace: 3, maxRepeatsPerTrace: 5, maxErrorsPerTrace: 10 },
    });
    const token = await tokenFor(ES, ana);
    const trace = freshTrace();
    const orders = ["ORD-1001", "ORD-1002", "ORD-1001", "ORD-1002"];
    const codes = [];
    for (const o of orders)
      codes.push(
        (await send(anthropicCall("lookup_order", { order_id: o }), headersFor({ token, trace }))).content.code,
      );
    expect(codes).toEqual(["ok", "ok", "ok", "limit_exceeded"]);
    const counters = await db().agentTraceCounter.findMany({ where: { traceId: trace } });
    expect(counters.find((c) => c.counter === "calls")?.count).toBe(4);
    expect(counters.find((c) => c.counter === "spent")?.count).toBe(1);
    await db().agentBudgetPolicy.delete({ where: { tenantId: tenant.id } });
  });

  it("concurrent calls on one trace cannot overspend (atomic upserts)", async () => {
    const tenant = await db().tenant.findUniqueOrThrow({ where: { slug: ES } });
    await db().agentBudgetPolicy.create({
      data: { tenantId: tenant.id, maxCallsPerTrace: 10, maxRepeatsPerTrace: 100, maxErrorsPerTrace: 100 },
    });
    const token = await tokenFor(ES, ana);
    const trace = freshTrace();
    const answers = await Promise.all(
      Array.from({ length: 25 }, () =>
        send(anthropicCall("lookup_order", { order_id: "ORD-1001" }), headersFor({ token, trace })),
      ),
    );
    expect(answers.filter((a) => a.content.code === "ok")).toHaveLength(10);
    expect(answers.filter((a) => a.content.code === "limit_exceeded")).toHaveLength(15);
    await db().agentBudgetPolicy.delete({ where: { tenantId: tenant.id } });
  });
});
