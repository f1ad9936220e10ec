import { describe, expect, it } from "vitest";
import { safeCallbackPath, sameOriginPath } from "./safe-callback";

const ORIGIN = "https://app.test";

describe("sameOriginPath: the one redirect parser", () => {
  it.each([
    ["/queue?x=1", "/queue?x=1"],
    ["/queue#top", "/queue#top"],
    ["/proposals/abc?tab=audit#hash", "/proposals/abc?tab=audit#hash"],
    ["/x?next=http://a.test/", "/x?next=http://a.test/"],
    ["https://app.test/a?b=1#frag", "/a?b=1#frag"],
    ["HTTPS://APP.TEST/audit", "/audit"],
    ["https://app.test:443/audit", "/audit"],
    // Relative forms resolve under our origin, as the browser would resolve them there.
    ["queue", "/queue"],
    ["%2F%2Fevil.example", "/%2F%2Fevil.example"],
    ["/%2F%2Fevil.example", "/%2F%2Fevil.example"],
    ["/%09/evil.example", "/%09/evil.example"],
    ["/%5Cevil.example", "/%5Cevil.example"],
  ])("keeps the same-origin target %j as %j", (target, path) => {
    expect(sameOriginPath(target, ORIGIN)).toBe(path);
  });

  it.each([
    // Control characters the browser strips: "/<TAB>/evil.example" is "//evil.example" to it.
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r/evil.example",
    "/\r\n/evil.example",
    "\t//evil.example",
    " //evil.example",
    "/\t\\evil.example",
    // Backslashes are slashes in http(s) URLs.
    "/\\evil.example",
    "\\\\evil.example",
    "\\/evil.example",
    // Protocol-relative and absolute URLs of other origins.
    "//evil.example",
    "///evil.example",
    "//evil.example/queue",
    "https://evil.example/queue",
    "http://app.test/queue",
    "https://app.test:8443/queue",
    "https://app.test.evil.example/queue",
    "https://app.test@evil.example/",
    "https://user:pw@app.test/queue",
    // Other schemes.
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "java\tscript:alert(1)",
    "javascript:alert(1)//http://x",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    "ftp://app.test/a",
    "httpx://app.test/a",
    "http://",
    // A path that normalizes to "//" would be read as a host by whoever follows it.
    "/.//evil.example",
    "https://app.test//evil.example/x",
    "",
  ])("refuses %j", (target) => {
    expect(sameOriginPath(target, ORIGIN)).toBeNull();
  });

  it("refuses when there is no target or our origin is not an http(s) URL", () => {
    expect(sameOriginPath(undefined, ORIGIN)).toBeNull();
    expect(sameOriginPath(null, ORIGIN)).toBeNull();
    expect(sameOriginPath("/queue", "not a url")).toBeNull();
    expect(sameOriginPath("/queue", "javascript:alert(1)")).toBeNull();
  });

  it("what it returns resolves to the same path on our origin again (a fixed point)", () => {
    for (const target of ["/a/../b?c=d#e", "/%09/x", "/a b", "/ü"]) {
      const path = sameOriginPath(target, ORIGIN)!;
      expect(sameOriginPath(path, ORIGIN)).toBe(path);
      expect(new URL(path, ORIGIN).origin).toBe(ORIGIN);
    }
  });
});

describe("safeCallbackPath: where a sign-in goes next", () => {
  it("keeps a same-origin page", () => {
    expect(safeCallbackPath("/queue?x=1", ORIGIN)).toBe("/queue?x=1");
    expect(safeCallbackPath("https://app.test/audit", ORIGIN)).toBe("/audit");
    expect(safeCallbackPath("/apiary", ORIGIN)).toBe("/apiary");
    expect(safeCallbackPath("/api", ORIGIN)).toBe("/api");
  });

  it.each([
    "/sign-in",
    "/sign-in?callbackUrl=/x",
    "/sign-inx",
    "https://app.test/sign-in?x=1",
    "/api/auth/signout",
    "https://app.test/api/auth",
    "/\t/evil.example",
    "https://evil.example/queue",
    "javascript:alert(1)",
    undefined,
    null,
    "",
  ])("sends %j home", (target) => {
    expect(safeCallbackPath(target, ORIGIN)).toBe("/");
  });
});
