import { describe, expect, it } from "vitest";
import { accessLogRoute } from "./access-log";

describe("accessLogRoute", () => {
  it("drops the query string and keeps route words", () => {
    expect(accessLogRoute("/api/health/ready?x=1")).toBe("/api/health/ready");
    expect(accessLogRoute("/sign-in?callbackUrl=%2Fqueue")).toBe("/sign-in");
    expect(accessLogRoute("/")).toBe("/");
    expect(accessLogRoute(undefined)).toBe("/");
  });
  it("replaces ids, tokens and numbers so no identifier or credential is logged", () => {
    const token = "p0wVbGm3c2Q9o_kz0yS8tXcE4f1h7JwqLrNn2aBdE5U";
    expect(accessLogRoute(`/setup/${token}`)).toBe("/setup/:param");
    expect(accessLogRoute("/api/proposals/0b7c8a9e-3f2d-4a1b-9c8d-7e6f5a4b3c2d/approve")).toBe(
      "/api/proposals/:param/approve",
    );
    expect(accessLogRoute("/api/v1/orders/ORD-1001")).toBe("/api/v1/orders/:param");
    expect(accessLogRoute("/api/payments/webhook/tienda-es")).toBe("/api/payments/webhook/tienda-es");
    // A long all-letter segment may be a token too.
    expect(accessLogRoute(`/setup/${"abcdefghij".repeat(4)}`)).toBe("/setup/:param");
    expect(accessLogRoute("/x/%E0%A4%A")).toBe("/x/:param");
    expect(accessLogRoute("/_next/static/chunks/abc123.js")).toBe("/_next/static/:asset");
  });
});
