import { describe, expect, it } from "vitest";
import { demoSecrets, productionSecretProblems } from "./demo-secrets";

describe("production secrets", () => {
  it("refuses missing, demo and short secrets", () => {
    expect(productionSecretProblems({})).toEqual(["NEXTAUTH_SECRET is not set", "AUDIT_HMAC_KEY is not set"]);
    expect(productionSecretProblems({ ...demoSecrets })).toEqual([
      "NEXTAUTH_SECRET is the public demo value",
      "AUDIT_HMAC_KEY is the public demo value",
    ]);
    expect(productionSecretProblems({ NEXTAUTH_SECRET: "short", AUDIT_HMAC_KEY: "x".repeat(40) })).toEqual([
      "NEXTAUTH_SECRET is shorter than 32 characters",
    ]);
  });
  it("accepts real secrets", () => {
    expect(productionSecretProblems({ NEXTAUTH_SECRET: "a".repeat(44), AUDIT_HMAC_KEY: "b".repeat(44) })).toEqual([]);
  });
});
