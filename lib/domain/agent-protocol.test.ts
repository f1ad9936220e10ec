import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  closestName,
  editDistance,
  failure,
  jsonPath,
  outcomeContent,
  parseEnvelope,
  resolveTraceId,
  toolResponse,
  validationProblems,
} from "./agent-protocol";
import { prepareRefundInput } from "@/lib/actions/refund/tools";
import { toolDefinitions, toolJsonSchema, toolNames } from "@/lib/schemas/tools";

describe("resolveTraceId", () => {
  it("takes the trace-id of a valid traceparent", () => {
    expect(resolveTraceId("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "other-trace-1")).toEqual({
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      source: "traceparent",
    });
  });
  it("ignores invalid traceparents (all-zero ids, version ff, wrong lengths) and falls back", () => {
    for (const tp of [
      "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
      "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
      "00-4bf92f35-00f067aa0ba902b7-01",
      "garbage",
    ]) {
      expect(resolveTraceId(tp, "fallback-trace")).toEqual({ traceId: "fallback-trace", source: "x-trace-id" });
    }
  });
  it("validates X-Trace-Id and otherwise generates 32 hex", () => {
    for (const bad of ["short", "has spaces in it", "<script>alert(1)</script>", "x".repeat(200), ""]) {
      const r = resolveTraceId(null, bad);
      expect(r.source).toBe("generated");
      expect(r.traceId).toMatch(/^[0-9a-f]{32}$/);
    }
  });
});

describe("parseEnvelope", () => {
  it("reads Anthropic tool_use and OpenAI function_call (arguments as a JSON string)", () => {
    expect(
      parseEnvelope({ type: "tool_use", id: "toolu_1", name: "lookup_order", input: { order_id: "ORD-1" } }),
    ).toEqual({
      ok: true,
      call: { family: "anthropic", callId: "toolu_1", name: "lookup_order", args: { order_id: "ORD-1" } },
    });
    expect(
      parseEnvelope({ type: "function_call", call_id: "c1", name: "lookup_order", arguments: '{"order_id":"ORD-1"}' }),
    ).toEqual({
      ok: true,
      call: { family: "openai", callId: "c1", name: "lookup_order", args: { order_id: "ORD-1" } },
    });
  });
  it("reports every envelope problem with its path, in the caller's family", () => {
    const r = parseEnvelope({ type: "function_call", name: "", arguments: "{nope" });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.family).toBe("openai");
    expect(r.problems.map((p) => p.path).sort()).toEqual(["$.arguments", "$.call_id", "$.name"]);
  });
  it("never throws, whatever the body (property)", () => {
    fc.assert(
      fc.property(fc.anything(), (v) => void parseEnvelope(v)),
      { numRuns: 1000 },
    );
  });
});

describe("names", () => {
  it("edit distance and closest tool", () => {
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(closestName("lookup_ordr", toolNames)).toBe("lookup_order");
    expect(closestName("get_refund", toolNames)).toBe("get_refund_status");
    expect(closestName("anything", [])).toBeNull();
  });

  it("suggests a tool for typos, plurals, other cases and separators, and parts of its name", () => {
    const typos: Record<string, string> = {
      lookup_ordr: "lookup_order",
      lookup_orders: "lookup_order",
      lookupOrder: "lookup_order",
      "lookup order": "lookup_order",
      LOOKUP_ORDER: "lookup_order",
      prepare_refnd: "prepare_refund",
      prepare_refunds: "prepare_refund",
      prepareRefund: "prepare_refund",
      get_refund_stauts: "get_refund_status",
      getRefundStatus: "get_refund_status",
      refund_status: "get_refund_status",
      get_refund: "get_refund_status",
      create_suport_ticket: "create_support_ticket",
      create_support_tickets: "create_support_ticket",
      support_ticket: "create_support_ticket",
    };
    for (const [typo, tool] of Object.entries(typos)) expect(closestName(typo, toolNames), typo).toBe(tool);
  });

  it("suggests nothing for a name unlike every tool (no guess by the least distance)", () => {
    for (const unrelated of [
      "update_shipping_address",
      "search_invoices",
      "cancel_order",
      "delete_order",
      "get_order",
      "send_email",
      "get_status",
      "issue_refund",
      "create_ticket",
      "order_lookup",
      "x",
      "ord",
    ])
      expect(closestName(unrelated, toolNames), unrelated).toBeNull();
  });
});

describe("validation problems", () => {
  it("names each unknown field and says what was expected", () => {
    const r = prepareRefundInput.safeParse({ order_id: 5, reason: "meh", amount: 1, customer_id: "x" });
    expect(r.success).toBe(false);
    const problems = validationProblems(r.error!.issues);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: "$.order_id", expected: "string" }),
        expect.objectContaining({ path: "$.reason", expected: expect.stringContaining('"damaged_item"') }),
        expect.objectContaining({ path: "$.amount", expected: "no such field" }),
        expect.objectContaining({ path: "$.customer_id", expected: "no such field" }),
      ]),
    );
  });
  it("quotes odd keys in JSON paths", () => {
    expect(jsonPath(["a", 0, "b c"])).toBe('$.a[0]["b c"]');
  });
});

describe("answers", () => {
  it("wraps outcomes in the caller's family", () => {
    const ok = toolResponse("anthropic", "t1", { code: "ok", result: { a: 1 } }, "trace");
    expect(ok).toEqual({
      type: "tool_result",
      tool_use_id: "t1",
      is_error: false,
      content: '{"code":"ok","result":{"a":1},"traceId":"trace"}',
    });
    const err = toolResponse("openai", "c1", failure("not_found", "nope", { order_id: "X" }), "trace");
    expect(err).toEqual({
      type: "function_call_output",
      call_id: "c1",
      output: '{"code":"not_found","error":{"message":"nope","order_id":"X"},"traceId":"trace"}',
    });
    expect(JSON.parse(outcomeContent({ code: "approval_required", result: {} }, "t")).code).toBe("approval_required");
  });
});

describe("tool definitions", () => {
  it("are strict: no extra properties, every property required, strict flag", () => {
    for (const name of toolNames) {
      const s = toolJsonSchema(name) as {
        additionalProperties: boolean;
        required: string[];
        properties: Record<string, unknown>;
        $schema?: string;
      };
      expect(s.additionalProperties).toBe(false);
      expect([...s.required].sort()).toEqual(Object.keys(s.properties).sort());
      expect(s.$schema).toBeUndefined();
    }
    for (const d of [...toolDefinitions(toolNames, "anthropic"), ...toolDefinitions(toolNames, "openai")])
      expect(d.strict).toBe(true);
  });
});
