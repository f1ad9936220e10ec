// Boundaries of the agent HTTP contract that mutation testing (npm run test:mutation) found unchecked:
// each expectation fails if the guarded condition, limit or message is changed.
import { describe, expect, it } from "vitest";
import {
  closestName,
  AGENT_UNKNOWN_FIELD_NOTE,
  detectFamily,
  editDistance,
  endUserTokenAudience,
  envelopeCallId,
  failure,
  isErrorOutcome,
  jsonPath,
  outcomeContent,
  parseEnvelope,
  resolveTraceId,
  toolResponse,
  validationProblems,
} from "./agent-protocol";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const SPAN = "00f067aa0ba902b7";
const tp = (version: string, trace: string, span: string, flags: string) => `${version}-${trace}-${span}-${flags}`;
const EXPECTED_SHAPES =
  'an object: {"type":"tool_use","id","name","input"} or {"type":"function_call","call_id","name","arguments"} or {"id","type":"function","function":{"name","arguments"}}';

describe("resolveTraceId: traceparent", () => {
  const fromTp = (value: string) => resolveTraceId(value, null);

  it("accepts padding and upper case, answering the lower-case trace id", () => {
    expect(fromTp(`  ${tp("00", TRACE.toUpperCase(), SPAN.toUpperCase(), "01")}  `)).toEqual({
      traceId: TRACE,
      source: "traceparent",
    });
  });
  it("accepts any version but ff, and any flags", () => {
    expect(fromTp(tp("fe", TRACE, SPAN, "00")).source).toBe("traceparent");
    expect(fromTp(tp("0a", TRACE, SPAN, "ff")).source).toBe("traceparent");
    expect(fromTp(tp("ff", TRACE, SPAN, "01")).source).toBe("generated");
  });
  it("refuses an all-zero span id, but not ids that merely start or end with zeros", () => {
    expect(fromTp(tp("00", TRACE, "0000000000000000", "01")).source).toBe("generated");
    expect(fromTp(tp("00", "00000000000000000000000000000001", SPAN, "01")).traceId).toBe(
      "00000000000000000000000000000001",
    );
    expect(fromTp(tp("00", "10000000000000000000000000000000", SPAN, "01")).traceId).toBe(
      "10000000000000000000000000000000",
    );
    expect(fromTp(tp("00", TRACE, "0000000000000001", "01")).source).toBe("traceparent");
    expect(fromTp(tp("00", TRACE, "1000000000000000", "01")).source).toBe("traceparent");
  });
  it("refuses every field of the wrong length or alphabet, and anything around the value", () => {
    for (const bad of [
      tp("0", TRACE, SPAN, "01"),
      tp("000", TRACE, SPAN, "01"),
      tp("00", TRACE.slice(1), SPAN, "01"),
      tp("00", `${TRACE}0`, SPAN, "01"),
      tp("00", TRACE, SPAN.slice(1), "01"),
      tp("00", TRACE, `${SPAN}0`, "01"),
      tp("00", TRACE, SPAN, "1"),
      tp("00", TRACE, SPAN, "011"),
      tp("0g", TRACE, SPAN, "01"),
      tp("00", `g${TRACE.slice(1)}`, SPAN, "01"),
      tp("00", TRACE, `g${SPAN.slice(1)}`, "01"),
      tp("00", TRACE, SPAN, "0g"),
      `x${tp("00", TRACE, SPAN, "01")}`,
      `${tp("00", TRACE, SPAN, "01")}x`,
      `00_${TRACE}-${SPAN}-01`,
    ]) {
      expect(fromTp(bad).source, bad).toBe("generated");
    }
  });
});

describe("resolveTraceId: X-Trace-Id", () => {
  const fromX = (value: string) => resolveTraceId(null, value);

  it("takes a trimmed id of 8 to 128 characters from the allowed alphabet", () => {
    expect(fromX("  fallback-trace  ")).toEqual({ traceId: "fallback-trace", source: "x-trace-id" });
    expect(fromX("abcdefgh")).toEqual({ traceId: "abcdefgh", source: "x-trace-id" });
    expect(fromX("A".repeat(128)).source).toBe("x-trace-id");
    expect(fromX("Z9._:-az").source).toBe("x-trace-id");
    expect(fromX("9abcdefg").source).toBe("x-trace-id");
  });
  it("refuses 7 or 129 characters, a leading punctuation mark and characters outside the alphabet", () => {
    for (const bad of ["abcdefg", "A".repeat(129), "-abcdefgh", ".abcdefgh", "abcdefg!", "abcd efgh", "abcdéfgh"]) {
      expect(fromX(bad).source, bad).toBe("generated");
    }
  });
  it("a valid traceparent wins over a valid X-Trace-Id; a generated id is 32 fresh hex", () => {
    expect(resolveTraceId(tp("00", TRACE, SPAN, "01"), "fallback-trace").source).toBe("traceparent");
    const a = resolveTraceId(null, null);
    const b = resolveTraceId(null, null);
    expect(a.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(a.traceId).not.toBe(b.traceId);
  });
});

describe("outcomes and audiences", () => {
  it("tells errors from results", () => {
    expect(isErrorOutcome(failure("not_found", "x"))).toBe(true);
    expect(isErrorOutcome({ code: "ok", result: {} })).toBe(false);
    expect(failure("expired", "gone")).toEqual({ code: "expired", error: { message: "gone" } });
  });
  it("binds an end-user token to tenant and channel", () => {
    expect(endUserTokenAudience("acme", "web_support")).toBe("acme/web_support");
  });
  it("answers in each family, with the error flag only in Anthropic's", () => {
    const err = failure("not_found", "nope");
    const content = '{"code":"not_found","error":{"message":"nope"},"traceId":"tr"}';
    expect(outcomeContent(err, "tr")).toBe(content);
    expect(toolResponse("anthropic", "t1", err, "tr")).toEqual({
      type: "tool_result",
      tool_use_id: "t1",
      is_error: true,
      content,
    });
    expect(toolResponse("openai_chat", "c9", err, "tr")).toEqual({ role: "tool", tool_call_id: "c9", content });
    expect(toolResponse("openai", "c1", { code: "ok", result: { a: 1 } }, "tr")).toEqual({
      type: "function_call_output",
      call_id: "c1",
      output: '{"code":"ok","result":{"a":1},"traceId":"tr"}',
    });
  });
});

describe("detectFamily and envelopeCallId", () => {
  it("recognizes each family by each of its markers", () => {
    expect(detectFamily({ type: "function" })).toBe("openai_chat");
    expect(detectFamily({ function: null })).toBe("openai_chat");
    expect(detectFamily({ type: "function_call" })).toBe("openai");
    expect(detectFamily({ call_id: 1 })).toBe("openai");
    expect(detectFamily({ arguments: 1 })).toBe("openai");
    expect(detectFamily({ type: "tool_use", id: "x" })).toBe("anthropic");
    expect(detectFamily({})).toBe("anthropic");
    expect(detectFamily(["function"])).toBe("anthropic");
    expect(detectFamily([{ type: "function_call" }])).toBe("anthropic");
    expect(detectFamily(Object.assign([], { call_id: "c" }))).toBe("anthropic");
    expect(detectFamily(null)).toBe("anthropic");
    expect(detectFamily("function_call")).toBe("anthropic");
  });
  it("reads the call id from the family's own field, 1 to 200 characters", () => {
    expect(envelopeCallId({ call_id: "c1", id: "i1" }, "openai")).toBe("c1");
    expect(envelopeCallId({ call_id: "c1", id: "i1" }, "anthropic")).toBe("i1");
    expect(envelopeCallId({ call_id: "c1", id: "i1" }, "openai_chat")).toBe("i1");
    expect(envelopeCallId({ id: "x".repeat(200) }, "anthropic")).toBe("x".repeat(200));
    expect(envelopeCallId({ id: "x".repeat(201) }, "anthropic")).toBe("unknown");
    expect(envelopeCallId({ id: "" }, "anthropic")).toBe("unknown");
    expect(envelopeCallId({ id: 7 }, "anthropic")).toBe("unknown");
    expect(envelopeCallId(null, "anthropic")).toBe("unknown");
    expect(envelopeCallId("id", "anthropic")).toBe("unknown");
  });
});

describe("parseEnvelope: every problem, exactly", () => {
  it("a body that is not an object", () => {
    for (const body of [null, "tool_use", 5, [{ type: "tool_use" }]]) {
      expect(parseEnvelope(body)).toEqual({
        ok: false,
        family: "anthropic",
        callId: "unknown",
        problems: [{ path: "$", expected: EXPECTED_SHAPES, message: "The body is not a tool call." }],
      });
    }
  });
  it("Anthropic: id, type, name and input", () => {
    expect(parseEnvelope({ type: "tool_result", id: "", name: "", input: [] })).toEqual({
      ok: false,
      family: "anthropic",
      callId: "unknown",
      problems: [
        { path: "$.id", expected: "a non-empty string of at most 200 characters", message: "Missing or invalid id." },
        { path: "$.type", expected: '"tool_use"', message: 'type must be "tool_use".' },
        { path: "$.name", expected: "the tool name, a non-empty string", message: "Missing or invalid tool name." },
        { path: "$.input", expected: "an object with the tool's arguments", message: "Missing or invalid input." },
      ],
    });
    for (const input of [null, "x", 3]) {
      const r = parseEnvelope({ type: "tool_use", id: "t", name: "n", input });
      expect(r.ok === false && r.problems.map((p) => p.path)).toEqual(["$.input"]);
    }
  });
  it("a tool name of 1 to 128 characters", () => {
    const named = (name: unknown) => parseEnvelope({ type: "tool_use", id: "t", name, input: {} });
    expect(named("x".repeat(128))).toEqual({
      ok: true,
      call: { family: "anthropic", callId: "t", name: "x".repeat(128), args: {} },
    });
    expect(named("a").ok).toBe(true);
    for (const bad of ["x".repeat(129), "", 5, null]) {
      const r = named(bad);
      expect(r).toMatchObject({ ok: false, callId: "t" });
      expect(r.ok === false && r.problems.map((p) => p.path)).toEqual(["$.name"]);
    }
  });
  it("OpenAI Responses: call_id and arguments (a JSON string, an object tolerated)", () => {
    const call = (args: unknown) => parseEnvelope({ type: "function_call", call_id: "c1", name: "n", arguments: args });
    expect(call({ a: 1 })).toEqual({ ok: true, call: { family: "openai", callId: "c1", name: "n", args: { a: 1 } } });
    expect(call("[1]")).toEqual({ ok: true, call: { family: "openai", callId: "c1", name: "n", args: [1] } });
    expect(call("{nope")).toEqual({
      ok: false,
      family: "openai",
      callId: "c1",
      problems: [
        { path: "$.arguments", expected: "a string holding a JSON object", message: "arguments is not valid JSON." },
      ],
    });
    for (const bad of [undefined, null, 5, [1], ""]) {
      const r = call(bad);
      if (bad === "") {
        expect(r.ok === false && r.problems[0]!.message).toBe("arguments is not valid JSON.");
        continue;
      }
      expect(r).toEqual({
        ok: false,
        family: "openai",
        callId: "c1",
        problems: [
          { path: "$.arguments", expected: "a string holding a JSON object", message: "Missing or invalid arguments." },
        ],
      });
    }
    expect(parseEnvelope({ type: "tool_use", call_id: "c2", name: "n", arguments: "{}" })).toEqual({
      ok: false,
      family: "openai",
      callId: "c2",
      problems: [{ path: "$.type", expected: '"function_call"', message: 'type must be "function_call".' }],
    });
    const noId = parseEnvelope({ type: "function_call", id: "i", name: "n", arguments: "{}" });
    expect(noId).toMatchObject({ ok: false, callId: "unknown" });
    expect(noId.ok === false && noId.problems).toEqual([
      {
        path: "$.call_id",
        expected: "a non-empty string of at most 200 characters",
        message: "Missing or invalid call_id.",
      },
    ]);
  });
  it("OpenAI Chat Completions: name and arguments nested under function", () => {
    expect(
      parseEnvelope({
        id: "call_1",
        type: "function",
        function: { name: "lookup_order", arguments: '{"order_id":"O"}' },
      }),
    ).toEqual({
      ok: true,
      call: { family: "openai_chat", callId: "call_1", name: "lookup_order", args: { order_id: "O" } },
    });
    expect(parseEnvelope({ id: "call_1", type: "function", function: { name: "", arguments: 5 } })).toEqual({
      ok: false,
      family: "openai_chat",
      callId: "call_1",
      problems: [
        {
          path: "$.function.name",
          expected: "the tool name, a non-empty string",
          message: "Missing or invalid tool name.",
        },
        {
          path: "$.function.arguments",
          expected: "a string holding a JSON object",
          message: "Missing or invalid arguments.",
        },
      ],
    });
    expect(parseEnvelope({ id: "call_1", type: "function", function: { name: "n", arguments: "{" } })).toMatchObject({
      ok: false,
      problems: [{ path: "$.function.arguments", message: "arguments is not valid JSON." }],
    });
    for (const fn of [undefined, null, "lookup_order", ["lookup_order"]]) {
      expect(parseEnvelope({ type: "function", function: fn })).toEqual({
        ok: false,
        family: "openai_chat",
        callId: "unknown",
        problems: [
          { path: "$.id", expected: "a non-empty string of at most 200 characters", message: "Missing or invalid id." },
          { path: "$.function", expected: '{"name","arguments"}', message: "Missing or invalid function." },
        ],
      });
    }
    expect(parseEnvelope({ id: "c", function: { name: "n", arguments: "{}" } })).toMatchObject({
      ok: false,
      callId: "c",
      problems: [{ path: "$.type", expected: '"function"', message: 'type must be "function".' }],
    });
  });
});

describe("names", () => {
  it("edit distance: insertions, deletions, substitutions, empty strings", () => {
    expect(editDistance("", "")).toBe(0);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("abc", "")).toBe(3);
    expect(editDistance("abc", "abc")).toBe(0);
    expect(editDistance("abc", "abd")).toBe(1);
    expect(editDistance("abc", "ab")).toBe(1);
    expect(editDistance("ab", "abc")).toBe(1);
    expect(editDistance("abc", "xabc")).toBe(1);
    expect(editDistance("flaw", "lawn")).toBe(2);
    expect(editDistance("sunday", "saturday")).toBe(3);
  });
  it("closest name: case-insensitive, containment counts 1 from 4 characters, ties go to the first", () => {
    expect(closestName("LOOKUP_ORDER", ["prepare_refund", "lookup_order"])).toBe("lookup_order");
    // One character is nothing like a tool name: no suggestion.
    expect(closestName("x", ["Lookup_Order"])).toBeNull();
    // Upper case contained in a candidate counts only because both sides are lower-cased.
    expect(closestName("ORDER", ["abc", "lookup_order"])).toBe("lookup_order");
    // "order" is contained in lookup_order (distance 1); "ord" is too short to count as contained.
    expect(closestName("order", ["abc", "lookup_order"])).toBe("lookup_order");
    expect(closestName("ord", ["abc", "lookup_order"])).toBeNull();
    // Two edits on two characters are not close: "or" gets nothing, not "ab".
    expect(closestName("or", ["ab", "lookup_order"])).toBeNull();
    // A name containing the candidate also counts 1.
    expect(closestName("lookup_order_now", ["lookup_orders_x", "lookup"])).toBe("lookup");
    expect(closestName("abc", ["abd", "abe"])).toBe("abd");
    expect(closestName("abc", ["xyz", "abd", "abe"])).toBe("abd");
    // Only the first 128 characters are compared: past them, both candidates contain the name (a tie).
    const a = "a".repeat(128);
    expect(closestName(`${a}xyz`, [`${a}q`, `${a}xyz`])).toBe(`${a}q`);
  });
});

describe("validation problems", () => {
  const issue = (code: string, path: PropertyKey[], extra: Record<string, unknown> = {}) => ({
    code,
    path,
    message: `m-${code}`,
    ...extra,
  });

  it("json paths: identifiers dotted, indexes bracketed, other keys quoted and cut at 64", () => {
    expect(jsonPath([])).toBe("$");
    expect(jsonPath(["_a1", "B", 3])).toBe("$._a1.B[3]");
    expect(jsonPath(["1a"])).toBe('$["1a"]');
    expect(jsonPath(["a-b"])).toBe('$["a-b"]');
    expect(jsonPath(["ab "])).toBe('$["ab "]');
    expect(jsonPath(["k".repeat(70) + "!"])).toBe(`$["${"k".repeat(64)}"]`);
    expect(jsonPath([Symbol.for("s")])).toBe('$["Symbol(s)"]');
  });
  it("each issue code says what was expected", () => {
    const problems = validationProblems(
      [
        issue("invalid_type", [], { expected: "object" }),
        issue("invalid_type", ["a"], { expected: "string" }),
        issue("invalid_type", ["h"], { expected: "string" }),
        issue("invalid_value", ["v"], { values: ["x", 1] }),
        issue("invalid_value", ["w"]),
        issue("too_small", ["s"], { origin: "string", minimum: 2 }),
        issue("too_small", ["n"], { origin: "number", minimum: 1 }),
        issue("too_big", ["s"], { origin: "string", maximum: 9 }),
        issue("too_big", ["n"], { origin: "number", maximum: 5 }),
        issue("invalid_format", ["r"], { format: "regex" }),
        issue("invalid_format", ["e"], { format: "email" }),
        issue("invalid_format", ["h"], { format: "uuid" }),
        issue("custom", ["c"]),
        issue("custom", ["h"]),
      ],
      { "$.h": "an order id like ORD-1" },
    );
    expect(problems).toEqual([
      { path: "$", expected: "an object", message: "m-invalid_type" },
      { path: "$.a", expected: "string", message: "m-invalid_type" },
      { path: "$.h", expected: "an order id like ORD-1", message: "m-invalid_type" },
      { path: "$.v", expected: 'one of "x", 1', message: "m-invalid_value" },
      { path: "$.w", expected: "one of ", message: "m-invalid_value" },
      { path: "$.s", expected: "at least 2 characters", message: "m-too_small" },
      { path: "$.n", expected: "at least 1", message: "m-too_small" },
      { path: "$.s", expected: "at most 9 characters", message: "m-too_big" },
      { path: "$.n", expected: "at most 5", message: "m-too_big" },
      { path: "$.r", expected: "a value in the documented format", message: "m-invalid_format" },
      { path: "$.e", expected: "a email", message: "m-invalid_format" },
      { path: "$.h", expected: "an order id like ORD-1", message: "m-invalid_format" },
      { path: "$.c", expected: "a value as documented", message: "m-custom" },
      { path: "$.h", expected: "an order id like ORD-1", message: "m-custom" },
    ]);
  });
  it("an unknown field outside the agent gateway: no word about what the gateway derives", () => {
    expect(validationProblems([issue("unrecognized_keys", [], { keys: ["stepUp"] })])).toEqual([
      {
        path: "$.stepUp",
        expected: "no such field",
        message: 'Unknown field "stepUp". Only the listed fields are accepted.',
      },
    ]);
  });
  it("names unknown fields one by one under their parent, cut at 64 characters", () => {
    expect(
      validationProblems(
        [issue("unrecognized_keys", ["outer"], { keys: ["amount", "x".repeat(70)] }), issue("unrecognized_keys", [])],
        {},
        AGENT_UNKNOWN_FIELD_NOTE,
      ),
    ).toEqual([
      {
        path: "$.outer.amount",
        expected: "no such field",
        message:
          'Unknown field "amount". Only the listed fields are accepted; the server derives identity, amount, currency and recipient itself.',
      },
      {
        path: `$.outer.${"x".repeat(70)}`,
        expected: "no such field",
        message: `Unknown field "${"x".repeat(64)}". Only the listed fields are accepted; the server derives identity, amount, currency and recipient itself.`,
      },
    ]);
  });
  it("cuts messages at 200 characters and the list at 20 problems", () => {
    const long = validationProblems([{ code: "custom", path: ["a"], message: "m".repeat(250) }]);
    expect(long[0]!.message).toBe("m".repeat(200));
    const many = Array.from({ length: 25 }, (_, i) => issue("custom", [`f${i}`]));
    const out = validationProblems(many);
    expect(out).toHaveLength(20);
    expect(out[19]!.path).toBe("$.f19");
    expect(validationProblems(many.slice(0, 20))).toHaveLength(20);
  });
});
