import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  fingerprintWithKey,
  isPersonalKey,
  isSecretKey,
  redact,
  scrubText,
  truncateText,
  wellFormed,
} from "./redaction";

const KEY = "unit-test-audit-key-0123456789abcdef";
const fp = (v: string) => fingerprintWithKey(KEY, v);

const EMAIL = "Ana.Garcia@cliente-es.test";
const CARD = "4242424242424242";
const IBAN = "ES9121000418450200051332";
const BEARER = "Bearer agk_0123456789abcdef0123456789abcdef01234567";

describe("fingerprint", () => {
  it("is keyed, stable and normalized (case, spaces, dashes)", () => {
    expect(fp(EMAIL)).toMatch(/^fp:[0-9a-f]{16}$/);
    expect(fp(EMAIL)).toBe(fp(" ana.garcia@CLIENTE-ES.test "));
    expect(fp("4242 4242 4242 4242")).toBe(fp(CARD));
    expect(fingerprintWithKey("another-key-0123456789", EMAIL)).not.toBe(fp(EMAIL));
    expect(() => fingerprintWithKey("", EMAIL)).toThrow();
  });
});

describe("field classification", () => {
  it.each([
    "authorization",
    "Authorization",
    "apiKey",
    "api_key",
    "x-api-key",
    "password",
    "endUserToken",
    "cookie",
    "client_secret",
    "sessionId",
  ])("%s is a secret", (k) => expect(isSecretKey(k)).toBe(true));
  it.each([
    "email",
    "customerEmail",
    "name",
    "holder_name",
    "phone",
    "iban",
    "card_number",
    "address",
    "customer_id",
    "recipient",
  ])("%s is personal", (k) => expect(isPersonalKey(k)).toBe(true));
  it.each(["order_id", "reason", "category", "priority", "proposal_id", "summary", "amount"])("%s is neither", (k) => {
    expect(isSecretKey(k)).toBe(false);
    expect(isPersonalKey(k)).toBe(false);
  });
});

describe("scrubText", () => {
  it("masks emails, cards, IBANs, phones and credentials inside free text", () => {
    const seen = new Set<string>();
    const out = scrubText(
      `mail ${EMAIL}, card 4242 4242 4242 4242, iban ES91 2100 0418 4502 0005 1332, call +34 612 345 678, auth ${BEARER}, jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.sig`,
      fp,
      seen,
    );
    expect(out).not.toContain("Ana.Garcia");
    expect(out).not.toContain("4242");
    expect(out).not.toContain("0418");
    expect(out).not.toContain("612 345");
    expect(out).not.toContain("agk_");
    expect(out).not.toContain("eyJ");
    expect(out).toContain(fp(EMAIL));
    expect(out).toContain(fp(CARD));
    expect(seen.has(fp(EMAIL))).toBe(true);
    expect(seen.has(fp(IBAN))).toBe(true);
  });
  it("leaves order numbers, dates, reasons and amounts alone", () => {
    const s = "ORD-1001 placed 2026-11-29, damaged_item, 123.45 EUR";
    expect(scrubText(s, fp)).toBe(s);
  });
  it("scrubs known personal strings (the customer's name)", () => {
    expect(scrubText("Hola, soy Ana García y quiero…", fp, new Set(), ["Ana García"])).toBe(
      `Hola, soy ${fp("Ana García")} y quiero…`,
    );
  });
});

describe("redact", () => {
  it("drops secrets, fingerprints personal fields, keeps allow-listed fields, scrubs the rest", () => {
    const { data, fingerprints } = redact(
      {
        order_id: "ORD-1001",
        reason: "damaged_item",
        amount: 5000,
        customer_id: "cus_tienda_es_ana",
        email: EMAIL,
        recipient: { iban: IBAN, holder: "Ana García" },
        authorization: BEARER,
        nested: { note: `card ${CARD}`, card: Number(CARD) },
        summary: "x".repeat(500),
      },
      fp,
      { clear: ["order_id", "reason"] },
    );
    const text = JSON.stringify(data);
    for (const canary of [EMAIL, CARD, IBAN, "agk_", "Ana García", "cus_tienda_es_ana"])
      expect(text).not.toContain(canary);
    expect(data).toMatchObject({
      order_id: "ORD-1001",
      reason: "damaged_item",
      amount: 5000,
      email: fp(EMAIL),
      customer_id: fp("cus_tienda_es_ana"),
    });
    expect(text).not.toContain("authorization");
    expect((data as { summary: string }).summary.length).toBeLessThan(260);
    expect(fingerprints).toContain(fp(EMAIL));
    expect(fingerprints).toContain(fp(CARD));
  });

  it("never lets a canary through, whatever the surrounding structure (property)", () => {
    const canaries = [EMAIL, CARD, IBAN, "agk_0123456789abcdef0123456789abcdef01234567"];
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.constantFrom(...canaries),
        fc.string(),
        fc.string(),
        (shape, canary, before, after) => {
          const value = { wrapper: shape, field: `${before} ${canary} ${after}`, list: [canary] };
          const out = JSON.stringify(redact(value, fp, { clear: ["field"] }).data);
          expect(out).not.toContain(canary);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("output is always well-formed JSON text", () => {
    fc.assert(
      fc.property(fc.anything(), (v) => {
        const out = redact(v, fp).data;
        expect(() => JSON.stringify(out)).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });
});

describe("text helpers", () => {
  it("truncates and fixes lone surrogates", () => {
    expect(truncateText("abc", 10)).toBe("abc");
    expect(truncateText("a".repeat(20), 10)).toMatch(/^a{10}…\[truncated 10 chars\]$/);
    expect(wellFormed("a\uD800b")).toBe("a\uFFFDb");
    expect(wellFormed("a\u0000b")).toBe("a\uFFFDb");
  });
});

describe("ids are not mistaken for phone or card numbers", () => {
  it("keeps canonical UUIDs intact, in allow-listed fields and in free text", async () => {
    const { redact } = await import("./redaction");
    const fp = (v: string) => `fp:${v.length}`;
    for (const id of ["0b4e6d2a-1234-4567-8901-234567890123", "12345678-1234-4123-8123-123456789012"]) {
      const r = redact({ deliveryId: id, note: `see ${id}` }, fp, { clear: ["deliveryId"] });
      expect(r.data).toEqual({ deliveryId: id, note: `see ${id}` });
    }
    // A real phone number next to an id is still masked.
    const r = redact({ note: "call +34 600 123 456 about 12345678-1234-4123-8123-123456789012" }, fp);
    expect(JSON.stringify(r.data)).not.toContain("600 123 456");
    expect(JSON.stringify(r.data)).toContain("12345678-1234-4123-8123-123456789012");
  });
});
