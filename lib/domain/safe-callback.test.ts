import { describe, expect, it } from "vitest";
import { safeCallbackPath } from "./safe-callback";

describe("safeCallbackPath", () => {
  it("keeps same-site paths", () => {
    expect(safeCallbackPath("/queue?x=1")).toBe("/queue?x=1");
    expect(safeCallbackPath("http://localhost:3000/audit")).toBe("/audit");
  });

  it("never leaves the site: an absolute URL keeps only its path", () => {
    expect(safeCallbackPath("https://evil.test/queue")).toBe("/queue");
    expect(safeCallbackPath("https://evil.test")).toBe("/");
  });

  it.each(["//evil.test/x", "/\\evil.test", "javascript:alert(1)", "evil", "/sign-in?callbackUrl=/x", "/api/auth/signout", ""])("refuses %s", (bad) => {
    expect(safeCallbackPath(bad)).toBe("/");
  });

  it("defaults to the home page", () => {
    expect(safeCallbackPath(undefined)).toBe("/");
  });
});
