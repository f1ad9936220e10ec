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
    expect(checkWebhookUrl("https://user:pw@example.com/", { allowPrivate: true })).toEqual({
      ok: false,
      problem: "credentials",
    });
    expect(checkWebhookUrl(`https://example.com/${"a".repeat(2100)}`, { allowPrivate: true })).toEqual({
      ok: false,
      problem: "too_long",
    });
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

describe("rare IPv6 literal forms of internal addresses are refused at save time", () => {
  it.each([
    ["IPv4-mapped, dotted", "http://[::ffff:127.0.0.1]/"],
    ["IPv4-mapped, hex (the URL parser's own form)", "http://[::ffff:7f00:1]/"],
    ["IPv4-mapped, private", "http://[::ffff:a9fe:a9fe]/"],
    ["IPv4-compatible", "http://[::127.0.0.1]/"],
    ["IPv4-compatible, hex", "http://[::7f00:1]/"],
    ["IPv4-compatible, metadata", "http://[::169.254.169.254]/"],
    ["IPv4-translated (SIIT)", "http://[::ffff:0:127.0.0.1]/"],
    ["NAT64 well-known prefix", "http://[64:ff9b::7f00:1]/"],
    ["NAT64 well-known prefix, dotted", "http://[64:ff9b::10.0.0.1]/"],
    ["local-use NAT64", "http://[64:ff9b:1::7f00:1]/"],
    ["6to4 of loopback", "http://[2002:7f00:1::]/"],
    ["6to4 of a private address", "http://[2002:c0a8:101::1]/"],
    ["Teredo with a loopback client", "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/"],
    ["Teredo with a private server", "http://[2001:0:a00:1::1]/"],
    ["loopback, uncompressed", "http://[0:0:0:0:0:0:0:1]/"],
    ["loopback, zero-padded", "http://[0000:0000:0000:0000:0000:0000:0000:0001]/"],
    ["loopback, partly compressed", "http://[::0:0:1]/"],
    ["unspecified", "http://[::]/"],
    ["unique local, upper case", "http://[FD12:3456::1]/"],
    ["site-local (deprecated)", "http://[fec0::1]/"],
    ["discard-only", "http://[100::1]/"],
    ["documentation", "http://[2001:db8::1]/"],
    ["multicast", "http://[ff02::1]/"],
  ])("%s: %s", (_, url) => {
    expect(checkWebhookUrl(url, { allowPrivate: false })).toEqual({ ok: false, problem: "private_address" });
  });

  it("a zone id is no URL host at all; as a resolved address it is classified without it", () => {
    expect(checkWebhookUrl("http://[fe80::1%25eth0]/", { allowPrivate: false })).toEqual({
      ok: false,
      problem: "invalid",
    });
    expect(isInternalAddress("fe80::1%eth0")).toBe(true);
    expect(isInternalAddress("::ffff:127.0.0.1%1")).toBe(true);
  });

  it("public IPv6, 6to4 and Teredo of public IPv4 addresses stay allowed", () => {
    for (const url of [
      "http://[2001:4860:4860::8888]/",
      "http://[2002:cb00:7107::1]/",
      "http://[::ffff:8.8.8.8]/",
      "http://[2001:0:4136:e378:8000:63bf:f7f7:f7f7]/",
    ]) {
      expect(checkWebhookUrl(url, { allowPrivate: false }).ok).toBe(true);
    }
  });
});
