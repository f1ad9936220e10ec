import { describe, expect, it } from "vitest";
import { checkWebhookUrl, isInternalAddress } from "./webhook-url";

describe("webhook URL check", () => {
  it("accepts public http(s) URLs", () => {
    expect(checkWebhookUrl("https://hooks.example.com/review?x=1", { allowPrivate: false }).ok).toBe(true);
    expect(checkWebhookUrl("http://203.0.113.7:8080/h", { allowPrivate: false }).ok).toBe(true);
  });

  it("refuses other schemes, garbage and credentials", () => {
    expect(checkWebhookUrl("ftp://example.com/", { allowPrivate: true })).toEqual({ ok: false, problem: "protocol" });
    expect(checkWebhookUrl("file:///etc/passwd", { allowPrivate: true })).toEqual({ ok: false, problem: "protocol" });
    expect(checkWebhookUrl("javascript:alert(1)", { allowPrivate: true })).toEqual({ ok: false, problem: "protocol" });
    expect(checkWebhookUrl("not a url", { allowPrivate: true })).toEqual({ ok: false, problem: "invalid" });
    expect(checkWebhookUrl("https://user:pw@example.com/", { allowPrivate: true })).toEqual({ ok: false, problem: "credentials" });
    expect(checkWebhookUrl(`https://example.com/${"a".repeat(2100)}`, { allowPrivate: true })).toEqual({ ok: false, problem: "too_long" });
  });

  it.each([
    "http://127.0.0.1:9000/",
    "http://localhost/",
    "http://api.localhost/",
    "http://10.1.2.3/",
    "http://172.20.0.1/",
    "http://192.168.1.1/",
    "http://169.254.169.254/latest/meta-data",
    "http://100.64.0.1/",
    "http://0.0.0.0/",
    "http://[::1]/",
    "http://[fd00::1]/",
    "http://[fe80::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://2130706433/", // 127.0.0.1 as a decimal integer: WHATWG URL normalizes it
  ])("refuses the internal host of %s unless allowed", (url) => {
    expect(checkWebhookUrl(url, { allowPrivate: false })).toEqual({ ok: false, problem: "private_address" });
    expect(checkWebhookUrl(url, { allowPrivate: true }).ok).toBe(true);
  });

  it("classifies addresses", () => {
    expect(isInternalAddress("127.0.0.1")).toBe(true);
    expect(isInternalAddress("::ffff:10.0.0.1")).toBe(true);
    expect(isInternalAddress("8.8.8.8")).toBe(false);
    expect(isInternalAddress("2001:4860:4860::8888")).toBe(false);
    expect(isInternalAddress("172.32.0.1")).toBe(false);
    expect(isInternalAddress("not-an-ip")).toBe(false);
  });
});
