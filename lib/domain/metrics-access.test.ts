import { describe, expect, it } from "vitest";
import { isLoopback, metricsAccess } from "./metrics-access";

const req = (over: Partial<Parameters<typeof metricsAccess>[0]> = {}) => ({
  authorization: null,
  peer: null,
  forwardedFor: null,
  ...over,
});
const open = { token: null, trustProxy: false };

describe("isLoopback", () => {
  it("127.0.0.0/8, ::1 and their IPv4-mapped forms; nothing else", () => {
    for (const a of ["127.0.0.1", "127.255.255.254", "::1", "::ffff:127.0.0.1", "[::1]", " 127.0.0.1 "])
      expect(isLoopback(a), a).toBe(true);
    for (const a of [
      "128.0.0.1",
      "126.255.255.255",
      "10.0.0.1",
      "192.0.2.2",
      "::2",
      "::ffff:10.0.0.1",
      "localhost",
      "127.0.0.1.evil",
      "",
      "0.0.0.0",
    ])
      expect(isLoopback(a), a).toBe(false);
  });
});

describe("metricsAccess without a token", () => {
  it("serves a loopback peer and refuses any other, or an unknown one", () => {
    expect(metricsAccess(req({ peer: "127.0.0.1" }), open)).toEqual({ ok: true });
    expect(metricsAccess(req({ peer: "::1" }), open)).toEqual({ ok: true });
    expect(metricsAccess(req({ peer: "192.0.2.2" }), open)).toMatchObject({ ok: false, status: 403 });
    expect(metricsAccess(req({ peer: null }), open)).toMatchObject({ ok: false, status: 403 });
  });
  it("never believes X-Forwarded-For without TRUST_PROXY", () => {
    expect(metricsAccess(req({ peer: "192.0.2.2", forwardedFor: "127.0.0.1" }), open)).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(metricsAccess(req({ peer: null, forwardedFor: "127.0.0.1" }), open)).toMatchObject({ ok: false });
  });
  it("behind a trusted proxy, judges the last hop the proxy appended, not the peer (the proxy) nor earlier hops", () => {
    const proxied = { token: null, trustProxy: true };
    expect(metricsAccess(req({ peer: "127.0.0.1", forwardedFor: "203.0.113.7" }), proxied)).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(metricsAccess(req({ peer: "127.0.0.1", forwardedFor: "127.0.0.1, 203.0.113.7" }), proxied)).toMatchObject({
      ok: false,
    });
    expect(metricsAccess(req({ peer: "192.0.2.2", forwardedFor: "203.0.113.7, 127.0.0.1" }), proxied)).toEqual({
      ok: true,
    });
    // No header at all: the peer is the client.
    expect(metricsAccess(req({ peer: "127.0.0.1" }), proxied)).toEqual({ ok: true });
  });
  it("an Authorization header changes nothing when no token is configured", () => {
    expect(metricsAccess(req({ peer: "192.0.2.2", authorization: "Bearer anything-at-all-here" }), open)).toMatchObject(
      { ok: false, status: 403 },
    );
  });
});

describe("metricsAccess with a token", () => {
  const token = "0123456789abcdef0123";
  const withToken = { token, trustProxy: false };
  it("the exact bearer token from anywhere", () => {
    expect(metricsAccess(req({ peer: "192.0.2.2", authorization: `Bearer ${token}` }), withToken)).toEqual({
      ok: true,
    });
    expect(metricsAccess(req({ authorization: `bearer ${token}` }), withToken)).toEqual({ ok: true });
  });
  it("anything else is 401, loopback included: no token, a prefix, one character more, another scheme", () => {
    for (const authorization of [
      null,
      "",
      `Bearer ${token.slice(0, -1)}`,
      `Bearer ${token}x`,
      `Basic ${token}`,
      token,
      `Bearer ${token} extra`,
    ]) {
      expect(metricsAccess(req({ peer: "127.0.0.1", authorization }), withToken), String(authorization)).toMatchObject({
        ok: false,
        status: 401,
      });
    }
  });
});
