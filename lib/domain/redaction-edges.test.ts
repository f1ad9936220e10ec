// Limits and branches of the redaction (audit text, support tickets) that mutation testing found
// unchecked: each expectation fails if the guarded line is changed or removed.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  fingerprintWithKey,
  isPersonalKey,
  isSecretKey,
  normalizeForFingerprint,
  redact,
  scrubText,
  truncateText,
  wellFormed,
} from "./redaction";

// A stand-in fingerprint without digits or '@', so the patterns never match it a second time.
const fp = (v: string) =>
  `FP${[...createHash("md5").update(normalizeForFingerprint(v)).digest("hex").slice(0, 12)].map((c) => "abcdefghijklmnop"["0123456789abcdef".indexOf(c)]).join("")}`;

describe("key classification", () => {
  it("recognises secret keys in any case or spelling", () => {
    for (const k of ["apiKey", "API_KEY", "x-api-key", "Password", "clientSecret", "refreshToken", "authorization"])
      expect(isSecretKey(k), k).toBe(true);
    for (const k of ["amount", "reason", "orderId"]) expect(isSecretKey(k), k).toBe(false);
  });
  it("recognises personal keys in any case or spelling", () => {
    for (const k of ["Email", "customer_email", "IBAN", "phoneNumber", "holderName", "Recipient"])
      expect(isPersonalKey(k), k).toBe(true);
    for (const k of ["amount", "reason", "currency"]) expect(isPersonalKey(k), k).toBe(false);
  });
  it("normalises before fingerprinting, and refuses an empty key", () => {
    expect(normalizeForFingerprint(" Ana-García (x) ")).toBe("anagarcíax");
    expect(() => fingerprintWithKey("", "x")).toThrow("fingerprint key is empty");
  });
});

describe("free text", () => {
  it("keeps the scheme word of a bearer credential and hides the rest", () => {
    expect(scrubText("Authorization: Bearer abc.def", fp)).toBe("Authorization: Bearer [secret]");
    expect(scrubText("basic%20dXNlcjpwYXNz", fp)).toBe("basic [secret]");
  });
  it("hides JWTs and long tokens as [secret]", () => {
    expect(scrubText("t=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig", fp)).toBe("t=[secret]");
    expect(scrubText(`k ${"a".repeat(32)}`, fp)).toBe("k [secret]");
    expect(scrubText(`k ${"a".repeat(31)}`, fp)).toBe(`k ${"a".repeat(31)}`);
  });
  it("fingerprints known personal strings of 3+ characters, case-insensitively", () => {
    expect(scrubText("hola ANA GARCÍA", fp, new Set(), ["Ana García"])).toBe(`hola ${fp("ANA GARCÍA")}`);
    expect(scrubText("ab is short", fp, new Set(), ["ab", null, undefined, "  "])).toBe("ab is short");
    expect(scrubText("a.b matches only itself: axb", fp, new Set(), ["a.b"])).toBe(
      `${fp("a.b")} matches only itself: axb`,
    );
  });
  it("treats phone numbers from nine digits on, and keeps UUIDs", () => {
    expect(scrubText("call 612 345 678", fp)).toBe(`call ${fp("612 345 678")}`);
    expect(scrubText("call 12 345 678", fp)).toBe("call 12 345 678");
    const id = "0b9d2c5e-1f3a-4c1e-9a7b-2f4e6d8c0a11";
    expect(scrubText(`id ${id} and 10 20`, fp)).toBe(`id ${id} and 10 20`);
  });
  it("replaces NUL and lone surrogates only", () => {
    expect(wellFormed("a\u0000b\uD800c\uDC00d😀")).toBe("a\uFFFDb\uFFFDc\uFFFDd😀");
  });
  it("cuts text longer than the limit, and only then", () => {
    expect(truncateText("abcd", 4)).toBe("abcd");
    expect(truncateText("abcde", 4)).toBe("abcd…[truncated 1 chars]");
  });
});

describe("redact", () => {
  it("keeps null, booleans, small numbers; stringifies non-finite numbers; scrubs long digit runs and bigints", () => {
    const r = redact(
      {
        a: null,
        b: undefined,
        c: true,
        d: false,
        n: 42,
        inf: Infinity,
        big: 4242424242424242,
        ok: 123456789,
        bi: 4242424242424242n,
      },
      fp,
    );
    expect(r.data).toEqual({
      a: null,
      b: null,
      c: true,
      d: false,
      n: 42,
      inf: "Infinity",
      big: fp("4242424242424242"),
      ok: fp("123456789"),
      bi: fp("4242424242424242"),
    });
  });
  it("keeps a number of 1e8 or more that scrubbing leaves unchanged", () => {
    expect(redact({ x: 100000000 }, fp).data).toEqual({ x: fp("100000000") });
    expect(redact({ x: 1e21 }, fp).data).toEqual({ x: 1e21 });
  });
  it("drops secret keys, fingerprints personal ones, keeps clear ones (any case) in clear", () => {
    const r = redact(
      {
        password: "hunter2",
        email: "ana@example.org",
        Reason: "ana@example.org",
        other: "ana@example.org",
        flag: true,
        n: 5,
        obj: { a: 1 },
      },
      fp,
      { clear: ["REASON"] },
    );
    expect(r.data).toEqual({
      email: fp("ana@example.org"),
      Reason: fp("ana@example.org"),
      other: fp("ana@example.org"),
      flag: true,
      n: 5,
      obj: { a: 1 },
    });
    const p = redact({ email: null, phone: 612345678, iban: { x: 1 }, holder: false }, fp);
    expect(p.data).toEqual({ email: null, phone: fp("612345678"), iban: fp('{"x":1}'), holder: fp("false") });
    const clearText = redact({ reason: "see order 12" }, fp, { clear: ["reason"] });
    expect(clearText.data).toEqual({ reason: "see order 12" });
  });
  it("applies the caller's text limit and known personal strings", () => {
    expect(redact({ t: "abcdef" }, fp, { maxTextLength: 3 }).data).toEqual({ t: "abc…[truncated 3 chars]" });
    expect(redact({ t: "word ".repeat(41) }, fp).data).toEqual({ t: `${"word ".repeat(40)}…[truncated 5 chars]` });
    expect(redact({ t: "by Ana García" }, fp, { knownPersonal: ["Ana García"] }).data).toEqual({
      t: `by ${fp("Ana García")}`,
    });
  });
  it("stops at depth 6 and at 50 entries, saying how many more", () => {
    expect(redact({ a: { b: { c: { d: { e: { f: { g: 1 } } } } } } }, fp).data).toEqual({
      a: { b: { c: { d: { e: { f: "[too deep]" } } } } },
    });
    expect(redact([[[[[[[1]]]]]]], fp).data).toEqual([[[[[["[too deep]"]]]]]]);
    expect(redact([[[[[[1]]]]]], fp).data).toEqual([[[[[[1]]]]]]);
    const list = redact(
      Array.from({ length: 52 }, (_, i) => i),
      fp,
    ).data as unknown[];
    expect(list).toHaveLength(51);
    expect(list[50]).toBe("[2 more]");
    expect(
      redact(
        Array.from({ length: 50 }, () => 0),
        fp,
      ).data,
    ).toHaveLength(50);
    const obj = redact(Object.fromEntries(Array.from({ length: 53 }, (_, i) => [`k${i}`, i])), fp).data as Record<
      string,
      unknown
    >;
    expect(Object.keys(obj)).toHaveLength(51);
    expect(obj["[more]"]).toBe(3);
    expect(obj.k49).toBe(49);
    expect(obj.k50).toBeUndefined();
  });
  it("lists the fingerprints it made, sorted; an unserializable personal value still gets one", () => {
    const r = redact({ note: "zed@example.org and amy@example.org" }, fp);
    expect(r.fingerprints).toEqual([fp("amy@example.org"), fp("zed@example.org")]);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(redact({ customer: cyclic }, fp).data).toEqual({ customer: fp("[unserializable]") });
    expect(redact({ customer: Symbol("s") }, fp).data).toEqual({ customer: fp("Symbol(s)") });
    expect(redact(() => 1, fp).data).toBeNull();
  });
});

describe("a replacement is never scanned again", () => {
  // A real keyed fingerprint is hex: some have long digit runs. They must come out exactly as made.
  const digitFp = (v: string) =>
    `fp:${createHash("sha256").update(v).digest("hex").replace(/[a-f]/g, "7").slice(0, 16)}`;
  it("keeps fingerprints with long digit runs intact (not taken for a phone or card number)", () => {
    const email = "ana@example.com";
    const card = "4242 4242 4242 4242";
    const out = scrubText(`write to ${email}, card ${card}`, digitFp);
    expect(out).toMatch(/^write to fp:\d{16}, card fp:\d{16}$/);
    expect(out).toContain(digitFp(email));
  });
  it("keeps a fingerprint made upstream (madeFingerprints) as it is, wherever it appears, and lists it", () => {
    const made = "fp:123456789012abcd"; // a 12-digit run: a phone number to the patterns
    const out = redact({ after: made, note: `changed to ${made}` }, digitFp, { madeFingerprints: [made, null] });
    expect(out.data).toEqual({ after: made, note: `changed to ${made}` });
    expect(out.fingerprints).toContain(made);
    // Without the declaration the same string is scrubbed again: its digits are phone-like.
    expect((redact({ after: made }, digitFp).data as { after: string }).after).not.toBe(made);
  });
  it("trusts only declared fingerprints of the right shape: an fp:-looking value from the input is scrubbed", () => {
    const smuggled = "fp:4242424242424242"; // a card number dressed as a fingerprint
    const out = redact({ arg: smuggled, other: "fp:4242424242424242x" }, digitFp, {
      madeFingerprints: ["fp:0000000000000000", "fp:4242424242424242x"],
    });
    expect(JSON.stringify(out.data)).not.toContain("4242424242424242");
  });
  it("keeps a known personal value's fingerprint intact too", () => {
    const out = scrubText("María Pérez called", digitFp, new Set(), ["María Pérez"]);
    expect(out).toBe(`${digitFp("María Pérez")} called`);
  });
});
