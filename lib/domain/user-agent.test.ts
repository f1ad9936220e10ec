import { describe, expect, it } from "vitest";
import { redactUserAgent } from "./user-agent";

describe("redactUserAgent", () => {
  it("keeps the browser family and the system, nothing else", () => {
    const iphone =
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
    expect(redactUserAgent(iphone)).toBe("Safari on iOS");
    const pixel =
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36";
    expect(redactUserAgent(pixel)).toBe("Chrome on Android");
    expect(redactUserAgent("Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0")).toBe(
      "Firefox on Windows",
    );
    expect(redactUserAgent("Mozilla/5.0 (Windows NT 10.0) Chrome/124.0 Safari/537.36 Edg/124.0")).toBe(
      "Edge on Windows",
    );
    expect(redactUserAgent("curl/8.4.0")).toBe("other on other");
    expect(redactUserAgent("")).toBeNull();
  });
  it("never keeps a version or device model", () => {
    const out = redactUserAgent("Mozilla/5.0 (Linux; Android 14; SM-S918B) Chrome/124.0.6367.82 Mobile Safari/537.36");
    expect(out).not.toMatch(/\d|SM-/);
  });
});
