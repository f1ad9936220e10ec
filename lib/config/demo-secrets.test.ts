import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadDemoSecrets, MIN_SECRET_LENGTH, productionSecretProblems, publicDemoSecrets, requiredSecrets } from "./demo-secrets";

const dir = mkdtempSync(join(tmpdir(), "demo-secrets-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const seed = Buffer.alloc(32, 7).toString("base64");

describe("production secrets", () => {
  it("refuses missing, demo and short secrets", () => {
    expect(productionSecretProblems({})).toEqual(["NEXTAUTH_SECRET is not set", "AUDIT_HMAC_KEY is not set", "AUDIT_SIGNING_KEY is not set"]);
    expect(productionSecretProblems({ ...publicDemoSecrets })).toEqual([
      "NEXTAUTH_SECRET is the public demo value",
      "AUDIT_HMAC_KEY is the public demo value",
      "AUDIT_SIGNING_KEY is the public demo value",
    ]);
    expect(productionSecretProblems({ NEXTAUTH_SECRET: "short", AUDIT_HMAC_KEY: "x".repeat(40), AUDIT_SIGNING_KEY: seed })).toEqual([
      "NEXTAUTH_SECRET is shorter than 32 characters",
    ]);
    expect(productionSecretProblems({ NEXTAUTH_SECRET: "a".repeat(31), AUDIT_HMAC_KEY: "b".repeat(32), AUDIT_SIGNING_KEY: seed })).toEqual([
      "NEXTAUTH_SECRET is shorter than 32 characters",
    ]);
  });
  it("refuses an audit signing key that is not a 32-byte Ed25519 seed", () => {
    expect(productionSecretProblems({ NEXTAUTH_SECRET: "a".repeat(44), AUDIT_HMAC_KEY: "b".repeat(44), AUDIT_SIGNING_KEY: "c".repeat(60) })).toEqual([
      "AUDIT_SIGNING_KEY is not a 32-byte Ed25519 seed in base64",
    ]);
  });
  it("accepts real secrets", () => {
    expect(productionSecretProblems({ NEXTAUTH_SECRET: "a".repeat(44), AUDIT_HMAC_KEY: "b".repeat(44), AUDIT_SIGNING_KEY: seed })).toEqual([]);
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
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(secrets);
  });

  it("differ between installs", () => {
    expect(loadDemoSecrets(join(dir, "c.json")).NEXTAUTH_SECRET).not.toBe(loadDemoSecrets(join(dir, "d.json")).NEXTAUTH_SECRET);
  });

  it("refuse a file holding the public values, short values or broken JSON", () => {
    const pub = join(dir, "public.json");
    writeFileSync(pub, JSON.stringify(publicDemoSecrets));
    expect(() => loadDemoSecrets(pub)).toThrow(/NEXTAUTH_SECRET, AUDIT_HMAC_KEY, AUDIT_SIGNING_KEY missing, too short or public/);
    const short = join(dir, "short.json");
    writeFileSync(short, JSON.stringify({ NEXTAUTH_SECRET: "x".repeat(31), AUDIT_HMAC_KEY: "y".repeat(32) }));
    expect(() => loadDemoSecrets(short)).toThrow(/NEXTAUTH_SECRET missing/);
    const broken = join(dir, "broken.json");
    writeFileSync(broken, "{");
    expect(() => loadDemoSecrets(broken)).toThrow(/not readable JSON/);
  });
});
