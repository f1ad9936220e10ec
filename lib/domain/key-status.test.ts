import { describe, expect, it } from "vitest";
import { keyStatus } from "./key-status";

const now = new Date("2026-12-01T12:00:00Z");
describe("keyStatus", () => {
  it("is active without expiry, and until the instant it expires", () => {
    expect(keyStatus({ revokedAt: null, expiresAt: null }, now)).toBe("active");
    expect(keyStatus({ revokedAt: null, expiresAt: new Date(now.getTime() + 1) }, now)).toBe("active");
  });
  it("is expired exactly at its expiry (the authenticators refuse it from then on)", () => {
    expect(keyStatus({ revokedAt: null, expiresAt: now }, now)).toBe("expired");
  });
  it("says revoked for a revoked key, expired or not", () => {
    expect(keyStatus({ revokedAt: now, expiresAt: null }, now)).toBe("revoked");
    expect(keyStatus({ revokedAt: now, expiresAt: new Date(0) }, now)).toBe("revoked");
  });
});
