// The exact reach of each redaction pattern and key rule (found unchecked by mutation testing,
// npm run test:mutation): where a pattern starts and stops decides what an auditor can still read.
import { describe, expect, it } from "vitest";
import { isPersonalKey, isSecretKey, normalizeForFingerprint, redact, scrubText, truncateText } from "./redaction";

// A readable stand-in: what was fingerprinted shows between the brackets.
const fp = (v: string) => `FP<${v}>`;
const scrub = (text: string, known: string[] = []) => scrubText(text, fp, new Set(), known);
const groups = (s: string) => s.match(/.{1,4}/g)!.join(" ");

describe("key rules", () => {
  it("secret by a compacted, lower-cased name, or by one of its words", () => {
    for (const k of [
      "xApikeyx",
      "APIKEYX",
      "pass_word",
      "mypassword",
      "clientsecret",
      "accesstoken",
      "pin_code",
      "x_pin",
    ])
      expect(isSecretKey(k), k).toBe(true);
    for (const k of ["pinned", "keyboardLayout", "x_pi_n", "spin"]) expect(isSecretKey(k), k).toBe(false);
  });
  it("personal by a compacted name (email, iban, phone), or by one of its words, camelCase split", () => {
    for (const k of [
      "xEmailx",
      "myiban",
      "i_ban",
      "ph-one",
      "xPhonex",
      "cardHolder",
      "x9Name",
      "NAME",
      "customer_ref",
      "telephoneNumber",
    ])
      expect(isPersonalKey(k), k).toBe(true);
    for (const k of ["cardholder", "username2", "filename", "zipped", "x_ipv"]) expect(isPersonalKey(k), k).toBe(false);
  });
});

describe("fingerprint normalization", () => {
  it("folds compatibility forms and drops every kind of white space", () => {
    expect(normalizeForFingerprint("Ｅｍａｉｌ\tA\nB")).toBe("emailab");
    expect(normalizeForFingerprint("\u00a0ana\u2003")).toBe("ana");
  });
});

describe("credential patterns", () => {
  it("a bearer or basic credential up to its last token character, after any spacing", () => {
    expect(scrub("Bearer  a.b~c+d/e=f-g_h, next")).toBe("Bearer [secret], next");
    expect(scrub("BASIC\tdXNlcg==")).toBe("BASIC [secret]");
    expect(scrub("tokenbearer abc")).toBe("tokenbearer abc");
  });
  it("a JWT with two or three parts, only at a word start", () => {
    expect(scrub("eyJabc.def")).toBe("[secret]");
    expect(scrub("(eyJa-b_c.d-e_f.g-h_i)")).toBe("([secret])");
    expect(scrub("xeyJabc.def")).toBe("xeyJabc.def");
  });
  it("a run of 32 word characters of any kind", () => {
    expect(scrub(`k ${"A_9".repeat(11)} k`)).toBe("k [secret] k");
    expect(scrub(`k ${"A_9".repeat(10)}A k`)).toBe(`k ${"A_9".repeat(10)}A k`);
  });
});

describe("personal-data patterns", () => {
  it("an email needs a dotted domain with a top-level part of two letters or more", () => {
    expect(scrub("to a.b_c%d+e-f@x-y.sub.example.co.")).toBe("to FP<a.b_c%d+e-f@x-y.sub.example.co>.");
    expect(scrub("to a@b.cd.")).toBe("to FP<a@b.cd>.");
    expect(scrub("to a@b.c or a@b")).toBe("to a@b.c or a@b");
  });
  it("an IBAN has 11 to 30 characters after its check digits, spaced or dashed, and six digits in a row", () => {
    expect(scrub("iban DE8937040044053.")).toBe("iban FP<DE8937040044053>.");
    // Ten characters are no IBAN: only the digits go, as a phone number.
    expect(scrub("iban DE893704004405.")).toBe("iban DEFP<893704004405>.");
    expect(scrub("iban DE89-3704-0044-0532-0130-00.")).toBe("iban FP<DE89-3704-0044-0532-0130-00>.");
    const thirty = `GB29 ${groups(`123456${"A".repeat(24)}`)}`;
    expect(scrub(`${thirty}.`)).toBe(`FP<${thirty}>.`);
    const longer = `GB29 ${groups(`123456${"A".repeat(25)}`)}.`;
    // One character more: the match stops at the last word boundary within 30.
    expect(scrub(longer)).toBe("FP<GB29 1234 56AA AAAA AAAA AAAA AAAA AAAA> AAA.");
    expect(scrub("DE89 123 456 ABCD EFGH.")).toBe("FP<DE89 123 456 ABCD EFGH>.");
    expect(scrub("DE89 ABCD EFGH IJKL M.")).toBe("DE89 ABCD EFGH IJKL M.");
    // Lower-case words after the last group are the sentence, not the number (they were masked with it).
    expect(scrub("IBAN DE89 3704 0044 0532 0130 00 y más")).toBe("IBAN FP<DE89 3704 0044 0532 0130 00> y más");
    expect(scrub("DE89-3704-0044-0532-0130-00-ok")).toBe("FP<DE89-3704-0044-0532-0130-00>-ok");
    // Only words after the last group: a lower-case group inside a lower-case IBAN is part of it.
    expect(scrub("gb29 nwbk 6016 1331 9268 19.")).toBe("FP<gb29 nwbk 6016 1331 9268 19>.");
    // An upper-case last group stays part of it (Mauritius ends in its currency: "… 000M UR").
    expect(scrub("MU17 BOMM 0101 1010 3030 0200 000M UR")).toBe("FP<MU17 BOMM 0101 1010 3030 0200 000M UR>");
    // Only the IBAN part decides: six digits in a row there, not in the words after it.
    expect(scrub("DE89 ABCD EFGH IJKL MNOP q")).toBe("DE89 ABCD EFGH IJKL MNOP q");
  });
  it("a card number of 13 to 19 digits stops at its last digit; other digit runs are phone-like", () => {
    expect(scrub("refund 4242 4242 4242 4242 - 12 EUR")).toBe("refund FP<4242 4242 4242 4242> - 12 EUR");
    expect(scrub("n 1234567890123 - 5")).toBe("n FP<1234567890123> - 5");
    expect(scrub("n 1234567890123456789 - 5")).toBe("n FP<1234567890123456789> - 5");
    expect(scrub("n 123456789012 - 5")).toBe("n FP<123456789012 - 5>");
    expect(scrub("n 12345678901234567890 - 5")).toBe("n FP<12345678901234567890 - 5>");
  });
  it("a phone number from nine digits, with its leading plus", () => {
    expect(scrub("call 612345678")).toBe("call FP<612345678>");
    expect(scrub("call 61234567")).toBe("call 61234567");
    expect(scrub("call +34612345678")).toBe("call FP<+34612345678>");
    expect(scrub("call +34 (612) 345-67.8")).toBe("call FP<+34 (612) 345-67.8>");
  });
  it("known personal strings from three characters (trimmed), regex characters taken literally", () => {
    expect(scrub("by abc", ["abc"])).toBe("by FP<abc>");
    expect(scrub("by ab", ["ab "])).toBe("by ab");
    expect(scrub("by abc", [" abc "])).toBe("by FP<abc>");
    expect(scrub("(Ana)+[x]* and Ana", ["(Ana)+[x]*"])).toBe("FP<(Ana)+[x]*> and Ana");
  });
  it("any number of replacements come back in place", () => {
    const many = Array.from({ length: 12 }, (_, i) => `u${i}@example.org`);
    expect(scrub(many.join(" "))).toBe(many.map((m) => `FP<${m}>`).join(" "));
  });
});

describe("truncation and values", () => {
  it("never leaves half a surrogate pair at the cut", () => {
    expect(truncateText("a😀", 2)).toBe("a\uFFFD…[truncated 1 chars]");
  });
  it("scrubs large negative numbers and stringifies every non-finite one", () => {
    expect(redact({ n: -123456789, m: -99999999, nan: NaN, ninf: -Infinity }, fp).data).toEqual({
      n: "-FP<123456789>",
      m: -99999999,
      nan: "NaN",
      ninf: "-Infinity",
    });
  });
  it("scrubs and cuts field names to 64 characters; 50 entries need no [more]", () => {
    const long = `${"ab ".repeat(30)}`;
    const r = redact({ [long]: 1, "mail a@b.cd": 2 }, fp).data as Record<string, unknown>;
    expect(Object.keys(r)).toEqual([`${long.slice(0, 64)}…[truncated ${long.length - 64} chars]`, "mail FP<a@b.cd>"]);
    const fifty = redact(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i])), fp).data as Record<
      string,
      unknown
    >;
    expect(Object.keys(fifty)).toHaveLength(50);
    expect(fifty).not.toHaveProperty("[more]");
  });
  it("fingerprints a personal value of any type from its text", () => {
    expect(redact({ customer: () => 1, holder: 12, name: [1, "a"] }, fp).data).toEqual({
      customer: "FP<() => 1>",
      holder: "FP<12>",
      name: 'FP<[1,"a"]>',
    });
    expect(redact({ customer: undefined }, fp)).toEqual({ data: { customer: null }, fingerprints: [] });
  });
  it("an allow-listed personal field stays in clear (any case), still depth-limited", () => {
    expect(redact({ Holder: "Ana", holder_b: "Ana" }, fp, { clear: ["HOLDER"] }).data).toEqual({
      Holder: "Ana",
      holder_b: "FP<Ana>",
    });
    const deep = { c: { c: { c: { c: { c: { c: { c: 1 } } } } } } };
    expect(redact(deep, fp, { clear: ["c"] }).data).toEqual({ c: { c: { c: { c: { c: { c: "[too deep]" } } } } } });
  });
  it("numbers below 1e8 stay numbers, decimals included; NaN and undefined personal values", () => {
    expect(redact({ x: 1234.56789, y: 99999999.5 }, fp).data).toEqual({ x: 1234.56789, y: 99999999.5 });
    expect(redact({ phone: NaN, holder: true }, fp).data).toEqual({ phone: "FP<NaN>", holder: "FP<true>" });
    expect(redact([[[[[[undefined]]]]]], fp).data).toEqual([[[[[[null]]]]]]);
  });
  it("walks arrays inside objects and objects inside arrays", () => {
    expect(redact([{ email: "a@b.cd", note: ["call 612345678"] }], fp).data).toEqual([
      { email: "FP<a@b.cd>", note: ["call FP<612345678>"] },
    ]);
  });
});
