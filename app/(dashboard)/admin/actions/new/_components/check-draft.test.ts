import { describe, expect, it } from "vitest";
import type { DeclarationSpec } from "../../_components/declaration";
import { checkDraft, isJsonPointer, placeholdersOf } from "./check-draft";
import { boxOf, boxPaths } from "./box-paths";
import { draftOf, emptyDraft, normalizePath, specOf, type Draft } from "./draft";

// The contract's example declaration (/work/declared-contract.md).
const storeCredit: DeclarationSpec = {
  name: "issue_store_credit",
  description: "Issue store credit for a damaged or late order.",
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
  sentence: {
    en: "Issue {amount} {currency} of store credit to {customer}",
    es: "Emitir {amount} {currency} a {customer}",
  },
  policy: { approvals: 1, stepUp: true, money: { amountKey: "amount", currencyKey: "currency" } },
  execute: { action: "issue_store_credit" },
};

const good = () => draftOf(storeCredit);
const problemsOf = (change: (d: Draft) => void) => {
  const d = good();
  change(d);
  return checkDraft(d).map((p) => `${p.path}:${p.code}`);
};

describe("the New action form's draft", () => {
  it("round-trips the contract's example: draft → declaration is the declaration", () => {
    expect(specOf(good())).toEqual(storeCredit);
    expect(checkDraft(good())).toEqual([]);
  });

  it("an empty form names every box that must be filled", () => {
    const paths = checkDraft(emptyDraft()).map((p) => p.path);
    expect(paths).toEqual(
      expect.arrayContaining(["name", "description", "input.0.name", "input.0.pattern", "derive.path"]),
    );
    expect(paths).toEqual(
      expect.arrayContaining(["fields.0.key", "fields.0.label.en", "sentence.en", "execute.action"]),
    );
  });

  it("refuses a tool name outside ^[a-z][a-z0-9_]{2,47}$ and a description under 10 characters", () => {
    expect(problemsOf((d) => (d.name = "Issue-credit"))).toEqual(["name:toolName"]);
    expect(problemsOf((d) => (d.name = "ab"))).toEqual(["name:toolName"]);
    expect(problemsOf((d) => (d.description = "short"))).toEqual(["description:description"]);
  });

  it("a string input has exactly one of pattern or allowed values; the pattern is anchored and compiles", () => {
    expect(problemsOf((d) => (d.input[1]!.pattern = "^x$"))).toEqual(["input.1.pattern:patternOrEnum"]);
    expect(problemsOf((d) => (d.input[0]!.pattern = "[A-Z]+"))).toEqual(["input.0.pattern:anchored"]);
    expect(problemsOf((d) => (d.input[0]!.pattern = "^([A-Z]$"))).toEqual(["input.0.pattern:regex"]);
    expect(problemsOf((d) => (d.input[0]!.maxLength = "201"))).toEqual(["input.0.maxLength:maxLength"]);
    expect(problemsOf((d) => (d.input[1]!.allowed = Array.from({ length: 21 }, (_, i) => `v${i}`).join(",")))).toEqual([
      "input.1.enum:enum",
    ]);
  });

  it("an integer input needs whole bounds within 2^31-1, minimum ≤ maximum", () => {
    expect(problemsOf((d) => (d.input[2]!.minimum = ""))).toEqual(["input.2.minimum:integer"]);
    expect(problemsOf((d) => (d.input[2]!.maximum = String(2 ** 31)))).toEqual(["input.2.maximum:integer"]);
    expect(problemsOf((d) => (d.input[2]!.minimum = "13"))).toEqual(["input.2.maximum:minMax"]);
  });

  it("input names are unique and the derive path's placeholders name input fields", () => {
    expect(problemsOf((d) => (d.input[1]!.name = "order_id"))).toContain("input.1.name:unique");
    expect(problemsOf((d) => (d.input[1]!.name = "Reason code"))).toEqual(["input.1.name:fieldKey"]);
    expect(problemsOf((d) => (d.derivePath = "/quote?order={order}"))).toEqual(["derive.path:placeholder"]);
    expect(problemsOf((d) => (d.derivePath = "https://evil.test/quote"))).toEqual(["derive.path:derivePath"]);
  });

  it("derived keys are unique and well-formed, pointers are RFC 6901, both labels are given", () => {
    expect(problemsOf((d) => (d.fields[1]!.key = "customer"))).toContain("fields.1.key:unique");
    expect(problemsOf((d) => (d.fields[1]!.key = "Amount"))).toContain("fields.1.key:fieldKey");
    expect(problemsOf((d) => (d.fields[0]!.pointer = "customer/name"))).toEqual(["fields.0.pointer:pointer"]);
    expect(problemsOf((d) => (d.fields[0]!.labelEs = " "))).toEqual(["fields.0.label.es:required"]);
    expect(problemsOf((d) => (d.fields = []))).toContain("fields:fieldCount");
  });

  it("sentences name only derived keys; approvals 1..3; money names two different derived keys", () => {
    expect(problemsOf((d) => (d.sentenceEs = "Emitir {importe}"))).toEqual(["sentence.es:sentenceKey"]);
    expect(problemsOf((d) => (d.approvals = "4"))).toEqual(["policy.approvals:approvals"]);
    expect(problemsOf((d) => (d.currencyKey = ""))).toEqual(["policy.money:money"]);
    expect(problemsOf((d) => (d.currencyKey = "amount"))).toEqual(["policy.money:money"]);
    expect(problemsOf((d) => (d.action = "Issue"))).toEqual(["execute.action:executeAction"]);
  });

  it("reads templates, pointers and the server's problem paths", () => {
    expect(placeholdersOf("/q?o={order_id}&r={reason}")).toEqual(["order_id", "reason"]);
    expect(isJsonPointer("/a~1b/c~0")).toBe(true);
    expect(isJsonPointer("/a~2")).toBe(false);
    expect(normalizePath("$.input[0].pattern")).toBe("input.0.pattern");
    expect(normalizePath("fields.2.label.en")).toBe("fields.2.label.en");
  });

  it("puts a server problem at its box, or the nearest enclosing one, or on top when the form has none", () => {
    const boxes = boxPaths(good());
    expect(boxOf("$.input[2].minimum", boxes)).toBe("input.2.minimum");
    expect(boxOf("fields.1.label.es", boxes)).toBe("fields.1.label.es");
    expect(boxOf("policy.money.amountKey", boxes)).toBe("policy.money");
    expect(boxOf("input.9.name", boxes)).toBe("input"); // a row the form does not have
    expect(boxOf("name", boxes)).toBe("name");
    expect(boxOf("derive", boxes)).toBeNull();
    expect(boxOf("$", boxes)).toBeNull();
  });
});
