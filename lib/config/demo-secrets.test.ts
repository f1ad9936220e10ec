import { describe, expect, it } from "vitest";
import { demoSecrets, productionSecretProblems } from "./demo-secrets";

const seed = Buffer.alloc(32, 7).toString("base64");

describe("production secrets", () => {
  it("refuses missing, demo and short secrets", () => {
    expect(productionSecretProblems({})).toEqual(["NEXTAUTH_SECRET is not set", "AUDIT_HMAC_KEY is not set", "AUDIT_SIGNING_KEY is not set"]);
    expect(productionSecretProblems({ ...demoSecrets })).toEqual([
      "NEXTAUTH_SECRET is the public demo value",
      "AUDIT_HMAC_KEY is the public demo value",
      "AUDIT_SIGNING_KEY is the public demo value",
    ]);
    expect(productionSecretProblems({ NEXTAUTH_SECRET: "short", AUDIT_HMAC_KEY: "x".repeat(40), AUDIT_SIGNING_KEY: seed })).toEqual([
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
