// The audit trail of agent calls: every call leaves a chained event; secrets and personal data sent in
// arguments and headers never appear in clear in the table or the logs; a fingerprint finds them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pino from "pino";
import { db } from "@/lib/server/db/client";
import { openPgClient, withPgClient } from "@/lib/server/db/pg-client";
import { sqlOf } from "@/lib/server/db/sql";
import { log } from "@/lib/server/log";
import { auditFingerprint } from "@/lib/server/audit/fingerprint";
import { recordAuditEvent } from "@/lib/server/audit/record-event";
import { verifyAuditChain } from "@/lib/server/audit/verify-chain";
import { integratePending } from "@/lib/server/audit/sequencer";
import { TENANTLESS_LOG } from "@/lib/domain/audit-log";
import { ana, anthropicCall, ES, freshTrace, headersFor, openaiCall, send, tokenFor, webKey } from "./gateway-support";
import { transaction } from "@/lib/server/db/transaction";

const EMAIL = "canary.person@example.org";
const CARD = "4242424242424242";
const IBAN = "ES9121000418450200051332";
const BEARER_SECRET = "canarytokenAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
const CANARIES = [EMAIL, CARD, IBAN, BEARER_SECRET, "4242 4242 4242 4242", "ES91 2100 0418 4502 0005 1332"];

// Capture everything the application logger writes during this file.
const logLines: string[] = [];
const streamSym = pino.symbols.streamSym as unknown as keyof typeof log;
let originalStream: unknown;
beforeAll(() => {
  originalStream = log[streamSym];
  (log as unknown as Record<symbol, unknown>)[streamSym as unknown as symbol] = {
    write: (s: string) => void logLines.push(s),
  };
});
afterAll(() => {
  (log as unknown as Record<symbol, unknown>)[streamSym as unknown as symbol] = originalStream;
});

async function dumpAuditTable(): Promise<string> {
  const { rows } = await withPgClient(process.env.DATABASE_URL!, (c) =>
    c.query(`SELECT row_to_json(e)::text AS j FROM "AuditEvent" e ORDER BY "tenantId", pos`),
  );
  return rows.map((r) => r.j as string).join("\n");
}

describe("audit canaries", () => {
  it("email, card, IBAN and bearer token in arguments and headers never appear in clear; the email's fingerprint finds its events", async () => {
    const token = await tokenFor(ES, ana);
    const trace = freshTrace();
    const canaryHeaders = {
      ...headersFor({ token, trace }),
      "x-agent-model": `model-for ${EMAIL}`,
      "x-agent-prompt-version": `v1 card ${CARD} Bearer ${BEARER_SECRET}`,
      "x-canary": `Bearer ${BEARER_SECRET}`,
    };
    // Model-invented fields (refused), a ticket whose free text holds everything, a hallucinated tool.
    await send(
      anthropicCall("prepare_refund", {
        order_id: "ORD-1001",
        reason: "damaged_item",
        email: EMAIL,
        recipient: { iban: IBAN, card: CARD },
        token: `Bearer ${BEARER_SECRET}`,
      }),
      canaryHeaders,
    );
    await send(
      anthropicCall("create_support_ticket", {
        category: "billing",
        priority: "urgent",
        summary: `Refund to ${IBAN} or card ${CARD}, write to ${EMAIL}; my api token is Bearer ${BEARER_SECRET}`,
      }),
      canaryHeaders,
    );
    await send(
      openaiCall("search_invoices", {
        customer_email: EMAIL,
        note: `card 4242 4242 4242 4242 iban ES91 2100 0418 4502 0005 1332`,
      }),
      canaryHeaders,
    );
    await send(anthropicCall("lookup_order", { order_id: CARD }), canaryHeaders);
    // The same canaries with an invalid key (401 path) and a non-JSON body (400 path).
    await send(anthropicCall("lookup_order", { order_id: EMAIL }), {
      ...canaryHeaders,
      authorization: `Bearer ${BEARER_SECRET}`,
    });
    await send(null, canaryHeaders, `not json ${EMAIL} ${CARD} ${IBAN} Bearer ${BEARER_SECRET}`);

    const table = await dumpAuditTable();
    const logs = logLines.join("\n");
    // The capture works: the calls above were logged (without the canaries).
    expect(logs).toContain("agent tool call");
    expect(logs).toContain(trace);
    for (const canary of CANARIES) {
      expect(table, canary).not.toContain(canary);
      expect(logs, canary).not.toContain(canary);
    }
    expect(table).not.toContain(webKey());
    expect(table).not.toContain(token);

    const fp = auditFingerprint(EMAIL);
    const found = await db().auditEvent.findMany({ where: { fingerprints: { has: fp } }, orderBy: { pos: "asc" } });
    expect(found.length).toBeGreaterThanOrEqual(3);
    // The email was also in the X-Agent-Model header, so every call of the trace carries its fingerprint.
    expect([...new Set(found.map((e) => e.action))]).toEqual(
      expect.arrayContaining([
        "tool:prepare_refund",
        "tool:create_support_ticket",
        "tool:search_invoices",
        "tool:lookup_order",
        "tool-call",
      ]),
    );
    const cardEvents = await db().auditEvent.count({ where: { fingerprints: { has: auditFingerprint(CARD) } } });
    expect(cardEvents).toBeGreaterThanOrEqual(3);
    // The ticket itself holds what the customer wrote (that is the business record); the audit holds the scrubbed form.
    const ev = found.find((e) => e.action === "tool:create_support_ticket")!;
    expect(JSON.stringify(ev.data)).toContain(fp);
    expect(ev.endUser).toBe(auditFingerprint(ana));
  });
});

describe("audit chain", () => {
  it("every call leaves one event, chained per tenant, and the chain verifies", async () => {
    const token = await tokenFor(ES, ana);
    const trace = freshTrace();
    const tenant = await db().tenant.findUniqueOrThrow({ where: { slug: ES } });
    const before = await db().auditEvent.count({ where: { tenantId: tenant.id } });
    const calls = [
      anthropicCall("lookup_order", { order_id: "ORD-1002" }),
      anthropicCall("prepare_refund", { order_id: "ORD-1002", reason: "not_received" }),
      anthropicCall("prepare_refund", { order_id: "ORD-1002", amount: 5 }),
      anthropicCall("nope", {}),
    ];
    const answers = [];
    for (const c of calls) answers.push(await send(c, headersFor({ token, trace })));
    // Concurrency must not fork the chain.
    await Promise.all(
      Array.from({ length: 8 }, () =>
        send(anthropicCall("lookup_order", { order_id: "ORD-1001" }), headersFor({ token, trace: freshTrace() })),
      ),
    );

    const events = await db().auditEvent.findMany({ where: { traceId: trace }, orderBy: { pos: "asc" } });
    expect(events.map((e) => [e.action, e.outcome])).toEqual([
      ["tool:lookup_order", "ok"],
      ["tool:prepare_refund", "approval_required"],
      ["tool:prepare_refund", "invalid_arguments"],
      ["tool:nope", "unknown_tool"],
    ]);
    const proposalEvent = events[1]!;
    expect(proposalEvent.proposalId).toBe(answers[1]!.content.result!.proposal_id);
    expect(proposalEvent.proposalHash).toBe(answers[1]!.content.result!.hash);
    expect(proposalEvent).toMatchObject({ actorType: "agent", authMethod: "agent_key", channel: "web_support" });
    expect(await db().auditEvent.count({ where: { tenantId: tenant.id } })).toBe(before + 4 + 8);

    // The sequencer integrates them all into one tree: contiguous leaf indexes, one per event.
    await integratePending();
    const verdict = await verifyAuditChain(tenant.id);
    expect(verdict).toMatchObject({ ok: true, events: before + 12, pending: 0 });
    const leaves = (
      await db().auditLeaf.findMany({
        where: { logId: tenant.id },
        select: { leafIndex: true },
        orderBy: { leafIndex: "asc" },
      })
    ).map((l) => l.leafIndex);
    expect(leaves).toEqual(Array.from({ length: before + 12 }, (_, i) => i));
  });

  it("odd text (NUL, lone surrogates, emoji) is answered and audited, never an internal_error", async () => {
    const token = await tokenFor(ES, ana);
    const trace = freshTrace();
    const odd = "bad \u0000 byte \uD800 and 🎉 fine";
    const a = await send(
      anthropicCall("create_support_ticket", { category: "technical", summary: odd, priority: "low" }),
      headersFor({ token, trace }),
    );
    expect(a.content.code).toBe("invalid_arguments");
    const b = await send(
      anthropicCall("create_support_ticket", {
        category: "technical",
        summary: "emoji 🎉 and \uD800 lone surrogate",
        priority: "low",
      }),
      headersFor({ token, trace }),
    );
    // A lone surrogate cannot be stored as text (PostgreSQL would keep U+FFFD): refused like NUL, with the path.
    expect(b.content.code).toBe("invalid_arguments");
    const emoji = await send(
      anthropicCall("create_support_ticket", { category: "technical", summary: "emoji 🎉 fine", priority: "low" }),
      headersFor({ token, trace }),
    );
    expect(emoji.content.code).toBe("ok");
    const c = await send(anthropicCall("lookup_order", { "\u0000key": odd }), headersFor({ token, trace }));
    expect(c.content.code).toBe("invalid_arguments");
    expect(await db().auditEvent.count({ where: { traceId: trace } })).toBe(4);
  });

  it("is append-only, and a tampered event is named by the verifier", async () => {
    const tenant = await db().tenant.findUniqueOrThrow({ where: { slug: ES } });
    await integratePending();
    const first = await db().auditEvent.findFirstOrThrow({ where: { tenantId: tenant.id }, orderBy: { pos: "asc" } });
    const leaf = await db().auditLeaf.findUniqueOrThrow({ where: { eventId: first.id } });
    await expect(db().auditEvent.updateMany({ where: { id: first.id }, data: { outcome: "ok" } })).rejects.toThrow();
    await expect(db().auditEvent.deleteMany({ where: { id: first.id } })).rejects.toThrow();
    // Simulate tampering by someone who can bypass the trigger.
    await withPgClient(process.env.DATABASE_URL!, async (c) => {
      await c.query(`ALTER TABLE "AuditEvent" DISABLE TRIGGER "AuditEvent_append_only"`);
      await c.query(`UPDATE "AuditEvent" SET outcome = 'ok' WHERE id = $1`, [first.id]);
      await c.query(`ALTER TABLE "AuditEvent" ENABLE TRIGGER "AuditEvent_append_only"`);
    });
    const verdict = await verifyAuditChain(tenant.id);
    expect(verdict).toMatchObject({ ok: false, brokenAtSeq: leaf.leafIndex, eventId: first.id });
  });

  it("if the audit event cannot be written, the call has no effect and answers internal_error", async () => {
    const token = await tokenFor(ES, ana);
    const order = await db().order.findFirstOrThrow({ where: { number: "ORD-1001", tenant: { slug: ES } } });
    const before = await db().proposal.count({ where: { orderId: order.id } });
    const c = await openPgClient(process.env.DATABASE_URL!);
    // Make every audit insert fail.
    await c.query(`ALTER TABLE "AuditEvent" ADD CONSTRAINT "test_refuse_all" CHECK (false) NOT VALID`);
    try {
      const r = await send(
        anthropicCall("prepare_refund", { order_id: "ORD-1001", reason: "wrong_item" }),
        headersFor({ token, trace: freshTrace() }),
      );
      expect(r.status).toBe(200);
      expect(r.content.code).toBe("internal_error");
      expect(Object.keys(r.content.error!)).toEqual(["message"]);
      expect(r.raw).not.toMatch(/constraint|INSERT|AuditEvent|at .*\.ts/);
    } finally {
      await c.query(`ALTER TABLE "AuditEvent" DROP CONSTRAINT "test_refuse_all"`);
      await c.end();
    }
    expect(await db().proposal.count({ where: { orderId: order.id } })).toBe(before);
  });

  it("recordAuditEvent works for other actors (sign-in events from the lead's code) and for tenantless events", async () => {
    const tenant = await db().tenant.findUniqueOrThrow({ where: { slug: ES } });
    await transaction((tx) =>
      recordAuditEvent(sqlOf(tx), {
        tenantId: tenant.id,
        traceId: freshTrace(),
        actor: { type: "staff", id: "staff-1", authMethod: "password" },
        action: "auth:sign_in",
        outcome: "ok",
        data: { email: "lucia.revisora@tienda-es.test", password: "hunter2hunter2", ip: "203.0.113.9" },
      }),
    );
    const e1 = await transaction((tx) =>
      recordAuditEvent(sqlOf(tx), {
        tenantId: null,
        traceId: freshTrace(),
        actor: { type: "staff" },
        action: "auth:sign_in",
        outcome: "unauthenticated",
        data: { email: "who@nowhere.test" },
      }),
    );
    const e2 = await transaction((tx) =>
      recordAuditEvent(sqlOf(tx), {
        tenantId: null,
        traceId: freshTrace(),
        actor: { type: "staff" },
        action: "auth:sign_in",
        outcome: "unauthenticated",
        data: { email: "who@nowhere.test" },
      }),
    );
    await integratePending();
    const [l1, l2] = await Promise.all(
      [e1, e2].map((e) => db().auditLeaf.findUniqueOrThrow({ where: { eventId: e.id } })),
    );
    expect(l1!.logId).toBe(TENANTLESS_LOG);
    expect(l2!.leafIndex).toBe(l1!.leafIndex + 1);
    const table = await dumpAuditTable();
    expect(table).not.toContain("hunter2");
    expect(table).not.toContain("lucia.revisora@tienda-es.test");
    expect(table).not.toContain("203.0.113.9");
    expect((await verifyAuditChain(null)).ok).toBe(true);
  });
});
