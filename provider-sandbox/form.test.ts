import { describe, expect, it } from "vitest";
import { canonicalForm, FormError, parseStripeForm, splitFormKey } from "./form";

describe("parseStripeForm", () => {
  it("decodes what stripe-node sends for a refund", () => {
    const body =
      "payment_intent=pi_123&amount=2500&metadata[proposalId]=p%2F1&metadata[tenantId]=t+1&reason=requested_by_customer";
    expect(parseStripeForm(body)).toEqual({
      payment_intent: "pi_123",
      amount: "2500",
      metadata: { proposalId: "p/1", tenantId: "t 1" },
      reason: "requested_by_customer",
    });
  });

  it("accepts percent-encoded brackets and builds arrays from indexes and []", () => {
    expect(parseStripeForm("metadata%5Ba%5D=1&expand[0]=x&expand[1]=y&tags[]=a&tags[]=b")).toEqual({
      metadata: { a: "1" },
      expand: ["x", "y"],
      tags: ["a", "b"],
    });
    expect(parseStripeForm("a[b][c]=1&a[b][d]=2")).toEqual({ a: { b: { c: "1", d: "2" } } });
    expect(parseStripeForm("")).toEqual({});
  });

  it("refuses duplicates, conflicts and malformed names instead of keeping one of them", () => {
    expect(() => parseStripeForm("amount=1&amount=2")).toThrow(FormError);
    expect(() => parseStripeForm("metadata=x&metadata[a]=1")).toThrow(FormError);
    expect(() => parseStripeForm("metadata[a]=1&metadata=x")).toThrow(FormError);
    expect(() => parseStripeForm("a[b=1")).toThrow(FormError);
    expect(() => parseStripeForm("[a]=1")).toThrow(FormError);
    expect(() => parseStripeForm("x[5]=1")).toThrow(FormError);
  });

  it("splits keys", () => {
    expect(splitFormKey("a")).toEqual(["a"]);
    expect(splitFormKey("a[b][]")).toEqual(["a", "b", ""]);
  });
});

describe("canonicalForm", () => {
  it("is the same for the same parameters in any order, and differs when a value differs", () => {
    const a = parseStripeForm("amount=1&payment_intent=pi&metadata[x]=1&metadata[y]=2");
    const b = parseStripeForm("metadata[y]=2&payment_intent=pi&metadata[x]=1&amount=1");
    const c = parseStripeForm("metadata[y]=2&payment_intent=pi&metadata[x]=1&amount=2");
    expect(canonicalForm(a)).toBe(canonicalForm(b));
    expect(canonicalForm(a)).not.toBe(canonicalForm(c));
    // No ambiguity between a value and a nested key that looks like it.
    expect(canonicalForm({ a: "b" })).not.toBe(canonicalForm({ a: { b: "" } }));
  });
});
