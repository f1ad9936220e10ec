// Property: whatever arrives (random JSON, malformed envelopes, wrong argument types, unknown fields,
// garbage tokens, non-JSON text), the gateway answers in the documented shape with a known code, never
// HTTP 500, never a stack trace or SQL text, and never makes a proposal from invalid input.
import { beforeAll, describe, expect, it } from "vitest";
import { refundReasons } from "@/lib/actions/refund/tools";
import fc from "fast-check";
import { errorCodes, successCodes } from "@/lib/domain/outcome";
import { db } from "@/lib/server/db/client";
import { POST } from "@/app/api/agent/tool-calls/route";
import { ana, ES, tokenFor, webKey } from "./gateway-support";
import { asRefund } from "@/lib/domain/refund-row";

// Thousands of calls from one key in a minute: lift the per-key and per-end-user window budgets (tested in
// gateway-window-budgets.test.ts) so the property exercises the tools rather than limit_exceeded.
beforeAll(async () => {
  const tenant = await db().tenant.findUniqueOrThrow({ where: { slug: ES } });
  await db().agentBudgetPolicy.create({
    data: { tenantId: tenant.id, maxCallsPerKeyPerWindow: 1_000_000, maxCallsPerEndUserPerWindow: 1_000_000 },
  });
});

const KNOWN = new Set<string>([...successCodes, ...errorCodes]);
const FORBIDDEN = [
  /\bat .+\.(ts|js|mjs):\d+/,
  /\bSELECT\b/i,
  /\bINSERT INTO\b/i,
  /\bprisma\b/i,
  /PrismaClient/,
  /Invalid `/,
  /\bstack\b/i,
  /node_modules/,
  /"Order"|"Proposal"|"AuditEvent"/,
];

const toolName = fc.oneof(
  fc.constantFrom(
    "lookup_order",
    "prepare_refund",
    "get_refund_status",
    "create_support_ticket",
    "search_invoices",
    "LOOKUP_ORDER",
    "",
  ),
  fc.string({ maxLength: 40 }),
);
const orderRef = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("ORD-1001", "ORD-1002", "ORD-1003", "ORD-1004") },
  fc.constantFrom(
    "ORD-1001",
    "ORD-1002",
    "ORD-1003",
    "ORD-2001",
    "ORD-9999",
    "",
    " ORD-1001",
    'ORD-1001\'; DROP TABLE "Order"; --',
  ),
  fc.string({ maxLength: 60 }),
  fc.string({ unit: "binary", maxLength: 20 }),
  fc.integer(),
  fc.constant(null),
);
const reason = fc.oneof(
  fc.constantFrom("damaged_item", "other", "DAMAGED", ""),
  fc.string({ maxLength: 20 }),
  fc.integer(),
);
const extraFields = fc.dictionary(
  fc.oneof(
    fc.constantFrom("amount", "customer_id", "currency", "recipient", "__proto__", "constructor"),
    fc.string({ maxLength: 12 }),
  ),
  fc.jsonValue({ maxDepth: 2 }),
  { maxKeys: 3 },
);

const knownTool = fc.constantFrom("lookup_order", "prepare_refund", "get_refund_status", "create_support_ticket");
// The refund kind's own list: a reason it adds is exercised here too.
const validReason = fc.constantFrom(...refundReasons);

const args = fc.oneof(
  // Plausible calls (some valid, so proposals can happen), then wrong types, extra fields, random shapes.
  { weight: 3, arbitrary: fc.record({ order_id: orderRef, reason: fc.oneof(validReason, reason) }) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.record({ order_id: orderRef, reason }, { requiredKeys: [] }), extraFields)
      .map(([a, b]) => ({ ...b, ...a })),
  },
  { weight: 1, arbitrary: fc.record({ proposal_id: fc.oneof(fc.uuid(), fc.string({ maxLength: 40 })) }) },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        category: fc.oneof(fc.constantFrom("billing", "x"), fc.string()),
        summary: fc.oneof(fc.string({ maxLength: 700 }), fc.string({ unit: "binary", minLength: 10, maxLength: 60 })),
        priority: fc.oneof(fc.constantFrom("low", "urgent"), fc.string()),
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

const body = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      type: fc.constant("tool_use"),
      id: fc.string({ minLength: 1, maxLength: 30 }),
      name: fc.oneof({ weight: 4, arbitrary: knownTool }, { weight: 1, arbitrary: toolName }),
      input: args,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      type: fc.constant("function_call"),
      call_id: fc.oneof(fc.string({ minLength: 1, maxLength: 30 }), fc.constant(null)),
      name: fc.oneof({ weight: 4, arbitrary: knownTool }, { weight: 1, arbitrary: toolName }),
      arguments: fc.oneof(
        { weight: 4, arbitrary: args.map((a) => JSON.stringify(a) ?? "null") },
        { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
        { weight: 1, arbitrary: args },
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        type: fc.oneof(fc.constant("tool_use"), fc.string({ maxLength: 12 })),
        id: fc.oneof(fc.string({ maxLength: 30 }), fc.integer(), fc.constant(undefined)),
        name: toolName,
        input: args,
      },
      { requiredKeys: ["type"] },
    ),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

type Raw = { text: string };
const rawBody: fc.Arbitrary<Raw> = fc.oneof(
  { weight: 12, arbitrary: body.map((b) => ({ text: JSON.stringify(b) ?? "null" })) },
  { weight: 1, arbitrary: fc.string({ maxLength: 80 }).map((s) => ({ text: s })) },
  { weight: 1, arbitrary: fc.constant({ text: "" }) },
);

describe("gateway property", () => {
  it("≥ 2,000 random and malformed calls: documented shape, known code, no 500, no leak, no proposal from invalid input", async () => {
    const good = await tokenFor(ES, ana);
    const tokens = [null, good, good, good, good, "garbage.token.value", good.slice(0, -3) + "abc"];
    const returnedProposals = new Set<string>();
    let runs = 0;
    const codes: Record<string, number> = {};
    const before = new Set((await db().proposal.findMany({ select: { id: true } })).map((p) => p.id));

    await fc.assert(
      fc.asyncProperty(
        rawBody,
        fc.constantFrom(...tokens),
        fc.constantFrom<"valid" | "none" | "garbage">(
          "valid",
          "valid",
          "valid",
          "valid",
          "valid",
          "valid",
          "valid",
          "valid",
          "none",
          "garbage",
        ),
        fc.oneof(
          { weight: 8, arbitrary: fc.constant(undefined) },
          { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
          { weight: 1, arbitrary: fc.constant("fixed-trace-for-budgets") },
        ),
        async (raw, token, key, trace) => {
          runs += 1;
          const headers: Record<string, string> = { "content-type": "application/json" };
          if (key === "valid") headers.authorization = `Bearer ${webKey()}`;
          if (key === "garbage") headers.authorization = "Bearer not-a-key-at-all-000";
          if (token) headers["x-end-user-token"] = token;
          if (trace !== undefined) headers["x-trace-id"] = trace.replace(/[^\x20-\x7e]/g, "");
          const res = await POST(
            new Request("http://localhost/api/agent/tool-calls", { method: "POST", headers, body: raw.text }),
          );

          // 429: a source sending many bad keys is throttled (gateway-floods.test.ts).
          expect([200, 400, 401, 429]).toContain(res.status);
          const text = await res.text();
          for (const re of FORBIDDEN) expect(text).not.toMatch(re);
          const outer = JSON.parse(text) as Record<string, unknown>;
          if (res.status === 401 || res.status === 429) {
            // Before the key is verified nothing of the body is read: the neutral {code, error, traceId}.
            expect(outer).toMatchObject({
              code: res.status === 401 ? "unauthenticated" : "limit_exceeded",
              error: { message: expect.any(String) },
            });
            return;
          }
          expect(["tool_result", "function_call_output", undefined]).toContain(outer.type);
          if (outer.type === undefined) expect(outer.role).toBe("tool");
          const inner = outer.type === "function_call_output" ? outer.output : outer.content;
          expect(typeof inner).toBe("string");
          const content = JSON.parse(inner as string) as {
            code: string;
            result?: Record<string, unknown>;
            error?: { message: unknown };
            traceId: unknown;
          };
          expect(KNOWN.has(content.code)).toBe(true);
          expect(content.traceId).toBe(res.headers.get("x-trace-id"));
          const isError = (errorCodes as readonly string[]).includes(content.code);
          if (isError) {
            expect(typeof content.error?.message).toBe("string");
            expect(content.result).toBeUndefined();
          } else {
            expect(content.result).toBeTypeOf("object");
          }
          if (outer.type === "tool_result") expect(outer.is_error).toBe(isError);
          if (res.status === 401) expect(content.code).toBe("unauthenticated");
          if (res.status === 400) expect(content.code).toBe("invalid_arguments");
          if (content.code === "internal_error") throw new Error(`internal_error for ${raw.text.slice(0, 200)}`);
          if (content.code === "approval_required") returnedProposals.add(String(content.result!.proposal_id));
          codes[content.code] = (codes[content.code] ?? 0) + 1;
        },
      ),
      { numRuns: 2000, seed: Number(process.env.FC_SEED ?? Date.now() % 2 ** 31) },
    );

    expect(runs).toBeGreaterThanOrEqual(2000);
    console.log("codes seen", codes);
    // Every proposal in the database was answered as approval_required to a valid call.
    const after = await db().proposal.findMany({ include: { order: true } });
    for (const p of after.map(asRefund)) {
      if (before.has(p.id)) continue;
      expect(returnedProposals.has(p.id)).toBe(true);
      expect(p.customerId).toBe(p.order.customerId);
      expect(p.customerId).toBe(ana);
      expect(p.amountMinor).toBeGreaterThan(0);
      expect(p.amountMinor).toBeLessThanOrEqual(p.order.capturedMinor);
    }
  }, 300_000);
});
