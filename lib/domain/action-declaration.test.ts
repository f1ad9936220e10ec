// The declaration's bounds and the pure pieces the declared_action kind builds from it.
import { describe, expect, it } from "vitest";
import { vendorKeywords, vendorSchema } from "@/lib/schemas/tools";
import {
  actionDeclarationSpec,
  declaredInputJsonSchema,
  declaredInputValidator,
  fillDerivePath,
  fillSentence,
  isDerivedValue,
  pickPointer,
  type ActionDeclarationSpec,
} from "./action-declaration";

export const storeCreditSpec: ActionDeclarationSpec = {
  name: "issue_store_credit",
  description: "Issue store credit for an order when the customer asks for credit instead of a refund.",
  input: [
    { name: "order_id", type: "string", description: "The order number", pattern: "^[A-Z0-9-]{3,40}$", maxLength: 40 },
    { name: "reason", type: "string", description: "Why", enum: ["damaged", "late"] },
    { name: "months", type: "integer", description: "Validity", minimum: 1, maximum: 12 },
    { name: "notify", type: "boolean", description: "Tell the customer" },
  ],
  derive: { path: "/store-credit/quote?order={order_id}" },
  fields: [
    { key: "customer", pointer: "/customer/name", label: { en: "Customer", es: "Cliente" }, clear: false },
    { key: "amount", pointer: "/credit/amount_minor", label: { en: "Amount", es: "Importe" }, clear: true },
    { key: "currency", pointer: "/credit/currency", label: { en: "Currency", es: "Moneda" }, clear: true },
  ],
  sentence: { en: "Issue {amount} {currency} to {customer}", es: "Emitir {amount} {currency} a {customer}" },
  policy: { approvals: 1, stepUp: true, money: { amountKey: "amount", currencyKey: "currency" } },
  execute: { action: "issue_store_credit" },
};

const problemsOf = (spec: unknown) => {
  const r = actionDeclarationSpec.safeParse(spec);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
};

describe("a declaration", () => {
  it("the contract's example is accepted", () => {
    expect(problemsOf(storeCreditSpec)).toEqual([]);
  });

  it("every bound is held", () => {
    const bad: [string, unknown][] = [
      ["name", { ...storeCreditSpec, name: "Issue" }],
      ["name", { ...storeCreditSpec, name: "ab" }],
      ["description", { ...storeCreditSpec, description: "short" }],
      ["input", { ...storeCreditSpec, input: [] }],
      [
        "input",
        {
          ...storeCreditSpec,
          input: Array.from({ length: 9 }, (_, i) => ({ name: `b${i}`, type: "boolean", description: "x" })),
        },
      ],
      ["input.0.pattern", { ...storeCreditSpec, input: [{ name: "a", type: "string", description: "x" }] }],
      [
        "input.0.pattern",
        { ...storeCreditSpec, input: [{ name: "a", type: "string", description: "x", pattern: "^a$", enum: ["a"] }] },
      ],
      [
        "input.0.pattern",
        { ...storeCreditSpec, input: [{ name: "a", type: "string", description: "x", pattern: "[a-z]+" }] },
      ],
      [
        "input.0.pattern",
        { ...storeCreditSpec, input: [{ name: "a", type: "string", description: "x", pattern: "^([a-z$" }] },
      ],
      [
        "input.0.maximum",
        { ...storeCreditSpec, input: [{ name: "a", type: "integer", description: "x", minimum: 5, maximum: 1 }] },
      ],
      [
        "input.0.minimum",
        {
          ...storeCreditSpec,
          input: [{ name: "a", type: "integer", description: "x", minimum: -(2 ** 31), maximum: 1 }],
        },
      ],
      ["input.0", { ...storeCreditSpec, input: [{ name: "a", type: "object", description: "x" }] }],
      ["input.1.name", { ...storeCreditSpec, input: [storeCreditSpec.input[0], storeCreditSpec.input[0]] }],
      ["derive.path", { ...storeCreditSpec, derive: { path: "/q?order={nope}" } }],
      ["derive.path", { ...storeCreditSpec, derive: { path: "//evil.example/x" } }],
      ["derive.path", { ...storeCreditSpec, derive: { path: "https://evil.example/x" } }],
      ["derive.path", { ...storeCreditSpec, derive: { path: "/a b" } }],
      ["fields.0.pointer", { ...storeCreditSpec, fields: [{ ...storeCreditSpec.fields[0], pointer: "customer" }] }],
      ["fields.0.pointer", { ...storeCreditSpec, fields: [{ ...storeCreditSpec.fields[0], pointer: "/a~2" }] }],
      [
        "fields.2.key",
        { ...storeCreditSpec, fields: [...storeCreditSpec.fields.slice(0, 2), storeCreditSpec.fields[0]] },
      ],
      ["sentence.es", { ...storeCreditSpec, sentence: { en: "x", es: "{nope}" } }],
      ["policy.approvals", { ...storeCreditSpec, policy: { ...storeCreditSpec.policy, approvals: 4 } }],
      [
        "policy.money.amountKey",
        {
          ...storeCreditSpec,
          policy: { ...storeCreditSpec.policy, money: { amountKey: "x", currencyKey: "currency" } },
        },
      ],
      ["execute.action", { ...storeCreditSpec, execute: { action: "A B" } }],
      ["", { ...storeCreditSpec, extra: 1 }],
    ];
    for (const [path, spec] of bad) {
      const problems = problemsOf(spec);
      expect(
        problems.some((p) => p.startsWith(`${path}:`)),
        `${path} in ${problems.join(" | ")}`,
      ).toBe(true);
    }
  });
});

describe("the declared tool", () => {
  it("its JSON schema is strict, and every vendor format serves it with allowed keywords only", () => {
    const schema = declaredInputJsonSchema(storeCreditSpec);
    expect(schema).toMatchObject({
      type: "object",
      required: ["order_id", "reason", "months", "notify"],
      additionalProperties: false,
    });
    for (const vendor of ["anthropic", "openai"] as const) {
      const served = vendorSchema(schema, vendor);
      const walk = (node: Record<string, unknown>) => {
        for (const k of Object.keys(node)) expect(vendorKeywords[vendor].has(k), `${vendor}: ${k}`).toBe(true);
        for (const sub of Object.values((node.properties ?? {}) as Record<string, Record<string, unknown>>)) walk(sub);
      };
      walk(served);
      // The dropped limits are restated for the model.
      expect(JSON.stringify(served)).toContain("at most 12");
    }
  });

  it("its validator refuses what the schema refuses: extra, missing, wrong type, out of bounds, off pattern", () => {
    const v = declaredInputValidator(storeCreditSpec);
    const ok = { order_id: "ORD-1001", reason: "late", months: 3, notify: true };
    expect(v.safeParse(ok).success).toBe(true);
    for (const bad of [
      { ...ok, amount: 5 },
      { order_id: "ORD-1001", reason: "late", months: 3 },
      { ...ok, months: 13 },
      { ...ok, months: 1.5 },
      { ...ok, order_id: "ord 1" },
      { ...ok, reason: "other" },
      { ...ok, notify: "yes" },
      { ...ok, order_id: "A".repeat(41) },
    ])
      expect(v.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });
});

describe("derive", () => {
  it("fills the path URL-encoded: a value cannot add a path segment or a query parameter", () => {
    expect(fillDerivePath("/q?order={order_id}&m={months}", { order_id: "A/B?c=1&d", months: 3 })).toBe(
      "/q?order=A%2FB%3Fc%3D1%26d&m=3",
    );
    expect(() => fillDerivePath("/q/{x}", { y: "1" })).toThrow();
  });

  it("picks by RFC 6901 pointer, escapes included; a missing member or index is not found", () => {
    const doc = { a: { "b/c": 1, "d~e": [10, 20], n: null }, "": 5 };
    expect(pickPointer(doc, "/a/b~1c")).toEqual({ found: true, value: 1 });
    expect(pickPointer(doc, "/a/d~0e/1")).toEqual({ found: true, value: 20 });
    expect(pickPointer(doc, "/a/n")).toEqual({ found: true, value: null });
    expect(pickPointer(doc, "/")).toEqual({ found: true, value: 5 });
    expect(pickPointer(doc, "")).toEqual({ found: true, value: doc });
    for (const p of ["/a/x", "/a/d~0e/2", "/a/d~0e/01", "/a/d~0e/-", "/a/b~1c/x", "/toString", "/a/__proto__"])
      expect(pickPointer(doc, p), p).toEqual({ found: false });
  });

  it("keeps only values the hash keeps exactly: short strings, safe integers, booleans", () => {
    for (const ok of ["x", 0, -5, true]) expect(isDerivedValue(ok)).toBe(true);
    for (const bad of [1.5, Number.NaN, 2 ** 60, null, {}, [], "x".repeat(501)])
      expect(isDerivedValue(bad)).toBe(false);
  });

  it("fills the sentence from the derived values", () => {
    expect(
      fillSentence("Issue {amount} {currency} to {customer}", { amount: 1500, currency: "EUR", customer: "Ana" }),
    ).toBe("Issue 1500 EUR to Ana");
  });
});
