import { describe, expect, it } from "vitest";
import {
  actionOriginProblem,
  contentSecurityPolicy,
  newNonce,
  requestOrigin,
  securityHeaders,
} from "./security-headers";

const headers = (h: Record<string, string>) => ({ get: (name: string) => h[name.toLowerCase()] ?? null });

describe("content security policy", () => {
  it("allows scripts only with the nonce, forbids framing, objects and foreign bases", () => {
    const csp = contentSecurityPolicy("abc123");
    expect(csp).toContain("script-src 'self' 'nonce-abc123' 'strict-dynamic'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'self'");
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).not.toContain("upgrade-insecure-requests");
  });
  it("adds eval for next dev only, and upgrades requests over https", () => {
    expect(contentSecurityPolicy("n", { dev: true })).toContain("'unsafe-eval'");
    expect(contentSecurityPolicy("n", { https: true })).toContain("upgrade-insecure-requests");
  });
  it("makes a different nonce every time, of 16 bytes", () => {
    const a = newNonce();
    expect(a).not.toBe(newNonce());
    expect(Buffer.from(a, "base64")).toHaveLength(16);
  });
});

describe("security headers", () => {
  it("sends COOP and CORP always, HSTS only over https", () => {
    expect(securityHeaders({ https: false })).toEqual({
      "Cross-Origin-Opener-Policy": "same-origin",
      "Cross-Origin-Resource-Policy": "same-origin",
    });
    expect(securityHeaders({ https: true })["Strict-Transport-Security"]).toBe("max-age=63072000; includeSubDomains");
  });
});

describe("request origin", () => {
  const url = new URL("http://localhost:3000/queue");
  it("ignores X-Forwarded-Host and -Proto unless the proxy is trusted", () => {
    const h = headers({ host: "localhost:3000", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" });
    expect(requestOrigin(h, url, false)).toEqual({ host: "localhost:3000", https: false });
    expect(requestOrigin(h, url, true)).toEqual({ host: "evil.example", https: true });
  });
  it("takes the first of a forwarded list, and the URL when no Host came", () => {
    expect(
      requestOrigin(
        headers({ "x-forwarded-host": "a.example, b.example", "x-forwarded-proto": "http,https" }),
        url,
        true,
      ),
    ).toEqual({
      host: "a.example",
      https: false,
    });
    expect(requestOrigin(headers({}), new URL("https://app.example/x"), true)).toEqual({
      host: "app.example",
      https: true,
    });
    // Untrusted, nothing says https: Next.js builds the URL's scheme from X-Forwarded-Proto itself.
    expect(requestOrigin(headers({}), new URL("https://app.example/x"), false)).toEqual({
      host: "app.example",
      https: false,
    });
  });
});

describe("server action origin", () => {
  it("lets reads through without an Origin", () => {
    for (const m of ["GET", "HEAD", "OPTIONS"]) expect(actionOriginProblem(m, null, "localhost:3000")).toBeNull();
  });
  it("refuses a POST without Origin, with a foreign or malformed one, and accepts this host", () => {
    expect(actionOriginProblem("POST", null, "localhost:3000")).toBe("missing_origin");
    expect(actionOriginProblem("POST", "null", "localhost:3000")).toBe("missing_origin");
    expect(actionOriginProblem("POST", "http://evil.example", "localhost:3000")).toBe("foreign_origin");
    expect(actionOriginProblem("POST", "http://localhost:3001", "localhost:3000")).toBe("foreign_origin");
    expect(actionOriginProblem("PUT", "not a url", "localhost:3000")).toBe("foreign_origin");
    expect(actionOriginProblem("POST", "http://localhost:3000", "localhost:3000")).toBeNull();
  });
});
