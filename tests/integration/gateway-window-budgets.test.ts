// Budgets per agent key and per end user per time window: enforced in PostgreSQL with one
// atomic upsert, independent of trace headers, answered with limit_exceeded + retry_after_seconds.
import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { purgeBudgetCounters } from "@/lib/server/agent/purge-budget-counters";
import { ana, anthropicCall, ES, freshTrace, headersFor, pablo, send, tokenFor, US, webKey } from "./gateway-support";

// A day-long window: no window boundary falls inside a test (except at UTC midnight, by a few seconds).
async function policy(values: {
  maxCallsPerKeyPerWindow?: number;
  maxCallsPerEndUserPerWindow?: number;
  windowSeconds?: number;
}) {
  const tenant = await db().tenant.findUniqueOrThrow({ where: { slug: ES } });
  await db().agentBudgetPolicy.upsert({
    where: { tenantId: tenant.id },
    create: {
      tenantId: tenant.id,
      maxCallsPerTrace: 1000,
      maxRepeatsPerTrace: 1000,
      maxErrorsPerTrace: 1000,
      windowSeconds: 86_400,
      ...values,
    },
    update: {
      maxCallsPerTrace: 1000,
      maxRepeatsPerTrace: 1000,
      maxErrorsPerTrace: 1000,
      windowSeconds: 86_400,
      ...values,
    },
  });
  return tenant;
}

afterEach(async () => {
  await db().agentBudgetPolicy.deleteMany({});
  await db().agentWindowCounter.deleteMany({});
});

const lookup = (headers: Record<string, string>) =>
  send(anthropicCall("lookup_order", { order_id: "ORD-1001" }), headers);

describe("window budget per agent key", () => {
  it("N parallel calls over the budget, each with a fresh X-Trace-Id → exactly the budget passes", async () => {
    await policy({ maxCallsPerKeyPerWindow: 10, maxCallsPerEndUserPerWindow: 1000 });
    const token = await tokenFor(ES, ana);
    const answers = await Promise.all(
      Array.from({ length: 25 }, () => lookup(headersFor({ token, trace: freshTrace() }))),
    );
    const codes = answers.map((a) => a.content.code);
    expect(codes.filter((c) => c === "ok")).toHaveLength(10);
    const limited = answers.filter((a) => a.content.code === "limit_exceeded");
    expect(limited).toHaveLength(15);
    for (const l of limited) {
      expect(l.body.is_error).toBe(true);
      expect(l.content.error).toMatchObject({
        budget: "agent_key_window",
        limits: { calls: 10, window_seconds: 86_400 },
      });
      const retry = l.content.error!.retry_after_seconds as number;
      expect(retry).toBeGreaterThan(0);
      expect(retry).toBeLessThanOrEqual(86_400);
    }
    const rows = await db().agentWindowCounter.findMany({ where: { subject: { startsWith: "key:" } } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.count).toBe(25);
  });

  it("calls without any trace header still count", async () => {
    await policy({ maxCallsPerKeyPerWindow: 3 });
    const h = headersFor({ token: await tokenFor(ES, ana) }); // no trace header: each call is its own trace
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await lookup(h)).content.code);
    expect(codes).toEqual(["ok", "ok", "ok", "limit_exceeded"]);
  });

  it("another tenant's key has its own budget", async () => {
    await policy({ maxCallsPerKeyPerWindow: 1 });
    const h = headersFor({ token: await tokenFor(ES, ana) });
    expect((await lookup(h)).content.code).toBe("ok");
    expect((await lookup(h)).content.code).toBe("limit_exceeded");
    const us = await send(anthropicCall("lookup_order", { order_id: "ORD-2001" }), headersFor({ key: webKey(US) }));
    expect(us.content.code).not.toBe("limit_exceeded");
  });
});

describe("window budget per end user", () => {
  it("one customer is limited across traces; another customer on the same key is not", async () => {
    await policy({ maxCallsPerKeyPerWindow: 1000, maxCallsPerEndUserPerWindow: 2 });
    const anaToken = await tokenFor(ES, ana);
    const codes = [];
    for (let i = 0; i < 3; i++)
      codes.push((await lookup(headersFor({ token: anaToken, trace: freshTrace() }))).content.code);
    expect(codes).toEqual(["ok", "ok", "limit_exceeded"]);
    const third = await lookup(headersFor({ token: anaToken, trace: freshTrace() }));
    expect(third.content.error).toMatchObject({ budget: "end_user_window" });
    const p = await send(
      anthropicCall("lookup_order", { order_id: "ORD-1003" }),
      headersFor({ token: await tokenFor(ES, pablo), trace: freshTrace() }),
    );
    expect(p.content.code).toBe("ok");
  });

  it("a limited prepare_refund creates no proposal", async () => {
    await policy({ maxCallsPerKeyPerWindow: 1000, maxCallsPerEndUserPerWindow: 1 });
    const token = await tokenFor(ES, ana);
    expect((await lookup(headersFor({ token, trace: freshTrace() }))).content.code).toBe("ok");
    const before = await db().proposal.count();
    const r = await send(
      anthropicCall("prepare_refund", { order_id: "ORD-1002", reason: "other" }),
      headersFor({ token, trace: freshTrace() }),
    );
    expect(r.content.code).toBe("limit_exceeded");
    expect(await db().proposal.count()).toBe(before);
  });
});

describe("purge_gateway_counters", () => {
  it("deletes window counters older than a day and trace counters idle for a week; keeps the current ones", async () => {
    const tenant = await policy({});
    const old = new Date(Date.now() - 25 * 3600_000);
    await db().agentWindowCounter.create({
      data: { tenantId: tenant.id, subject: "key:old", windowStart: old, count: 5 },
    });
    await db().agentWindowCounter.create({
      data: { tenantId: tenant.id, subject: "key:new", windowStart: new Date(), count: 5 },
    });
    await db().agentTraceCounter.create({
      data: {
        tenantId: tenant.id,
        traceId: "old-trace-000001",
        counter: "calls",
        count: 3,
        updatedAt: new Date(Date.now() - 8 * 86_400_000),
      },
    });
    await db().agentTraceCounter.create({
      data: { tenantId: tenant.id, traceId: "new-trace-000001", counter: "calls", count: 3 },
    });
    const purged = await purgeBudgetCounters();
    expect(purged.windows).toBeGreaterThanOrEqual(1);
    expect(purged.traces).toBeGreaterThanOrEqual(1);
    expect(
      (await db().agentWindowCounter.findMany({ where: { subject: { in: ["key:old", "key:new"] } } })).map(
        (r) => r.subject,
      ),
    ).toEqual(["key:new"]);
    expect(
      (
        await db().agentTraceCounter.findMany({ where: { traceId: { in: ["old-trace-000001", "new-trace-000001"] } } })
      ).map((r) => r.traceId),
    ).toEqual(["new-trace-000001"]);
  });

  it("is registered as a recurring job", async () => {
    const { crontab, tasks } = await import("@/lib/server/jobs/tasks");
    expect(Object.keys(tasks)).toContain("purge_gateway_counters");
    expect(crontab).toMatch(/purge_gateway_counters/);
  });
});
