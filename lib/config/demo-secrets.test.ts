import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import {
  loadDemoSecrets,
  lowEntropyReason,
  MAX_SECRET_RUN,
  MIN_SECRET_LENGTH,
  productionSecretProblems,
  publicDemoSecrets,
  requiredSecrets,
} from "./demo-secrets";

const dir = mkdtempSync(join(tmpdir(), "demo-secrets-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const seed = randomBytes(32).toString("base64");
const real = () => randomBytes(32).toString("base64url");

describe("production secrets", () => {
  it("refuses missing, demo and short secrets", () => {
    expect(productionSecretProblems({})).toEqual([
      "NEXTAUTH_SECRET is not set",
      "AUDIT_HMAC_KEY is not set",
      "AUDIT_SIGNING_KEY is not set",
    ]);
    expect(productionSecretProblems({ ...publicDemoSecrets })).toEqual([
      "NEXTAUTH_SECRET is the public demo value",
      "AUDIT_HMAC_KEY is the public demo value",
      "AUDIT_SIGNING_KEY is the public demo value",
    ]);
    expect(
      productionSecretProblems({ NEXTAUTH_SECRET: "short", AUDIT_HMAC_KEY: real(), AUDIT_SIGNING_KEY: seed }),
    ).toEqual(["NEXTAUTH_SECRET is shorter than 32 characters"]);
    expect(
      productionSecretProblems({
        NEXTAUTH_SECRET: real().slice(0, 31),
        AUDIT_HMAC_KEY: real(),
        AUDIT_SIGNING_KEY: seed,
      }),
    ).toEqual(["NEXTAUTH_SECRET is shorter than 32 characters"]);
  });
  it("refuses an audit signing key that is not a 32-byte Ed25519 seed", () => {
    expect(
      productionSecretProblems({
        NEXTAUTH_SECRET: real(),
        AUDIT_HMAC_KEY: real(),
        AUDIT_SIGNING_KEY: randomBytes(45).toString("base64"),
      }),
    ).toEqual(["AUDIT_SIGNING_KEY is not a 32-byte Ed25519 seed in base64"]);
  });
  it("checks SECRETS_KEY when it is set: 32 bytes, random, not the previous one", () => {
    const base = { NEXTAUTH_SECRET: real(), AUDIT_HMAC_KEY: real(), AUDIT_SIGNING_KEY: seed };
    const key = randomBytes(32).toString("base64");
    expect(
      productionSecretProblems({ ...base, SECRETS_KEY: key, SECRETS_KEY_PREVIOUS: randomBytes(32).toString("hex") }),
    ).toEqual([]);
    expect(productionSecretProblems({ ...base, SECRETS_KEY: randomBytes(16).toString("hex") })).toEqual([
      "SECRETS_KEY must be 32 random bytes as 64 hex digits or as base64 (generate one with `openssl rand -base64 32`)",
    ]);
    expect(productionSecretProblems({ ...base, SECRETS_KEY: "ab".repeat(32) })[0]).toMatch(
      /^SECRETS_KEY is not random enough: it repeats a pattern/,
    );
    expect(productionSecretProblems({ ...base, SECRETS_KEY: Buffer.alloc(32).toString("base64") })[0]).toMatch(
      /^SECRETS_KEY is not random enough/,
    );
    expect(productionSecretProblems({ ...base, SECRETS_KEY: key, SECRETS_KEY_PREVIOUS: key })).toEqual([
      "SECRETS_KEY_PREVIOUS is the same as SECRETS_KEY",
    ]);
  });
  it("accepts real secrets", () => {
    expect(
      productionSecretProblems({ NEXTAUTH_SECRET: real(), AUDIT_HMAC_KEY: real(), AUDIT_SIGNING_KEY: seed }),
    ).toEqual([]);
  });
  it("refuses long values of low entropy, saying why", () => {
    expect(
      productionSecretProblems({ NEXTAUTH_SECRET: real(), AUDIT_HMAC_KEY: "a".repeat(40), AUDIT_SIGNING_KEY: seed }),
    ).toEqual([
      "AUDIT_HMAC_KEY is not random enough: it repeats one character 40 times in a row (generate one with `openssl rand -base64 32`)",
    ]);
    // The signing key is checked too: a 32-byte seed of one repeated byte ("BwcH…=").
    expect(
      productionSecretProblems({
        NEXTAUTH_SECRET: real(),
        AUDIT_HMAC_KEY: real(),
        AUDIT_SIGNING_KEY: Buffer.alloc(32, 7).toString("base64"),
      })[0],
    ).toMatch(/^AUDIT_SIGNING_KEY is not random enough: it uses only 5 distinct characters/);
  });
  it("measures runs, patterns, alphabets and entropy at their bounds", () => {
    expect(lowEntropyReason("ab".repeat(22))).toBe("repeats a pattern of 2 characters");
    expect(lowEntropyReason("password".repeat(5))).toBe("repeats a pattern of 8 characters");
    // Runs: 9 of one character is allowed, 10 is not (random hex of 64 has a run of 6 once in 16,000 values).
    const base = "Zq8Lm3Rt7Vw2Xy9Kp4Nb6Hc1Jd5Gf0Se";
    expect(lowEntropyReason(`${base}${"a".repeat(MAX_SECRET_RUN)}`)).toBeNull();
    expect(lowEntropyReason(`${base}${"a".repeat(MAX_SECRET_RUN + 1)}`)).toBe(
      "repeats one character 10 times in a row",
    );
    expect(MAX_SECRET_RUN).toBe(9);
    // The hex value that a limit of 5 refused: a run of 6 inside random hex passes.
    expect(lowEntropyReason("3f9a0c1e7b2d4f6a8c0e1f3a5b7d9c2e4f60000001a3c5e7f9b2d4c6e8a0b1d3")).toBeNull();
    // Alphabet: 9 distinct characters in a non-periodic order are refused, 10 are not (by this rule).
    const nine = "123456789";
    expect(lowEntropyReason(`${nine}${[...nine].reverse().join("")}${nine}${nine.slice(3)}${nine.slice(0, 5)}`)).toBe(
      "uses only 9 distinct characters (at least 10)",
    );
    // Entropy: 40 characters over a 10-character alphabet carry at most 40 × log2(10) ≈ 132 bits; 38 carry ≈ 126.
    const ten = "0123456789";
    const mixed = (n: number) => Array.from({ length: n }, (_, i) => ten[(i * 7 + Math.floor(i / 10)) % 10]).join("");
    expect(lowEntropyReason(mixed(40))).toBeNull();
    expect(lowEntropyReason(mixed(38))).toMatch(/^has about 12\d bits of entropy \(at least 128\)$/);
    // What the runbook tells operators to run always passes.
    for (let i = 0; i < 200; i++) {
      expect(lowEntropyReason(randomBytes(32).toString("base64"))).toBeNull();
      expect(lowEntropyReason(randomBytes(32).toString("hex"))).toBeNull();
    }
  });
  it("holds a previous secret to the same rules and refuses it equal to the current one", () => {
    const current = { NEXTAUTH_SECRET: real(), AUDIT_HMAC_KEY: real(), AUDIT_SIGNING_KEY: seed };
    expect(
      productionSecretProblems({ ...current, NEXTAUTH_SECRET_PREVIOUS: real(), AUDIT_HMAC_KEY_PREVIOUS: real() }),
    ).toEqual([]);
    expect(
      productionSecretProblems({
        ...current,
        NEXTAUTH_SECRET_PREVIOUS: current.NEXTAUTH_SECRET,
        AUDIT_HMAC_KEY_PREVIOUS: "b".repeat(44),
      }),
    ).toEqual([
      "NEXTAUTH_SECRET_PREVIOUS is the same as NEXTAUTH_SECRET",
      "AUDIT_HMAC_KEY_PREVIOUS is not random enough: it repeats one character 44 times in a row (generate one with `openssl rand -base64 32`)",
    ]);
  });
});

describe("demo secrets generated per install", () => {
  it("are created on first use, owner-readable only, random, long and never the public values", () => {
    const file = join(dir, "a", "demo-secrets.json");
    const secrets = loadDemoSecrets(file);
    for (const name of requiredSecrets) {
      expect(secrets[name].length).toBeGreaterThanOrEqual(MIN_SECRET_LENGTH);
      expect(secrets[name]).not.toBe(publicDemoSecrets[name]);
    }
    expect(secrets.NEXTAUTH_SECRET).not.toBe(secrets.AUDIT_HMAC_KEY);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(secrets);
    expect(productionSecretProblems(secrets)).toEqual([]);
  });

  it("are kept: a second load (another process) reads the same values", () => {
    const file = join(dir, "b.json");
    const first = loadDemoSecrets(file);
    const copy = join(dir, "b-copy.json");
    writeFileSync(copy, readFileSync(file));
    expect(loadDemoSecrets(copy)).toEqual(first);
  });

  it("an older install's file gets the signing key added, its other secrets kept", () => {
    const file = join(dir, "old.json");
    const old = { NEXTAUTH_SECRET: "n".repeat(44), AUDIT_HMAC_KEY: "h".repeat(44) };
    writeFileSync(file, JSON.stringify(old));
    const secrets = loadDemoSecrets(file);
    expect(secrets).toMatchObject(old);
    expect(Buffer.from(secrets.AUDIT_SIGNING_KEY, "base64")).toHaveLength(32);
    expect(Buffer.from(secrets.SECRETS_KEY, "base64")).toHaveLength(32);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(secrets);
  });

  it("differ between installs", () => {
    expect(loadDemoSecrets(join(dir, "c.json")).NEXTAUTH_SECRET).not.toBe(
      loadDemoSecrets(join(dir, "d.json")).NEXTAUTH_SECRET,
    );
  });

  it("refuse a file holding the public values, short values or broken JSON", () => {
    const pub = join(dir, "public.json");
    writeFileSync(pub, JSON.stringify(publicDemoSecrets));
    expect(() => loadDemoSecrets(pub)).toThrow(
      /NEXTAUTH_SECRET, AUDIT_HMAC_KEY, AUDIT_SIGNING_KEY missing, too short or public/,
    );
    const short = join(dir, "short.json");
    writeFileSync(short, JSON.stringify({ NEXTAUTH_SECRET: "x".repeat(31), AUDIT_HMAC_KEY: "y".repeat(32) }));
    expect(() => loadDemoSecrets(short)).toThrow(/NEXTAUTH_SECRET missing/);
    const broken = join(dir, "broken.json");
    writeFileSync(broken, "{");
    expect(() => loadDemoSecrets(broken)).toThrow(/not readable JSON/);
  });
});
