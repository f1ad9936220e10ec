// postWebhook against a real HTTP server on 127.0.0.1. DNS is mocked so that a public-looking name
// resolves to loopback: the connect-time guard (DNS rebinding) must refuse it unless private is allowed.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("node:dns", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:dns")>();
  const lookup = (hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (hostname !== "hooks.example.test") return real.lookup(hostname, options as never, callback as never);
    const addresses = [{ address: "127.0.0.1", family: 4 }];
    return options.all ? callback(null, addresses) : callback(null, "127.0.0.1", 4);
  };
  return { ...real, default: { ...real, lookup }, lookup };
});

const { postWebhook } = await import("./post-webhook");

let server: Server;
let port: number;
let hits: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url ?? "");
    if (req.url === "/hang") return; // never answers
    if (req.url === "/redirect") {
      res.writeHead(307, { location: "/ok" });
      return res.end();
    }
    req.resume();
    req.on("end", () => {
      res.writeHead(req.url === "/fail" ? 503 : 204);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const post = (url: string, allowPrivate = true, timeoutMs = 2_000) =>
  postWebhook({ url, body: "{}", headers: { "X-Webhook-Id": "d1" }, timeoutMs, allowPrivate });

describe("postWebhook", () => {
  it("2xx is delivered, 5xx is a retryable failure", async () => {
    hits = [];
    expect(await post(`http://127.0.0.1:${port}/ok`)).toEqual({ ok: true, status: 204 });
    expect(await post(`http://127.0.0.1:${port}/fail`)).toEqual({
      ok: false,
      status: 503,
      error: "HTTP 503",
      permanent: false,
    });
    expect(hits).toEqual(["/ok", "/fail"]);
  });

  it("does not follow redirects", async () => {
    hits = [];
    const result = await post(`http://127.0.0.1:${port}/redirect`);
    expect(result).toMatchObject({ ok: false, status: 307 });
    expect(hits).toEqual(["/redirect"]);
  });

  it("gives up after the timeout", async () => {
    const result = await post(`http://127.0.0.1:${port}/hang`, true, 300);
    expect(result).toEqual({ ok: false, status: null, error: "timeout after 300 ms", permanent: false });
  });

  it("refuses an internal literal host unless allowed, without connecting", async () => {
    hits = [];
    expect(await post(`http://127.0.0.1:${port}/ok`, false)).toEqual({
      ok: false,
      status: null,
      error: "webhook URL refused (private_address)",
      permanent: true,
    });
    expect(hits).toEqual([]);
  });

  it("refuses a public name that resolves to an internal address at connect time", async () => {
    hits = [];
    const refused = await post(`http://hooks.example.test:${port}/ok`, false);
    expect(refused).toMatchObject({ ok: false, status: null });
    expect(refused.ok ? "" : refused.error).toContain("internal address");
    expect(hits).toEqual([]);
    // The same name is reachable when private addresses are allowed (demo mode): the mock really resolves.
    expect(await post(`http://hooks.example.test:${port}/ok`, true)).toEqual({ ok: true, status: 204 });
    expect(hits).toEqual(["/ok"]);
  });

  it("reports a refused connection", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await post(`http://127.0.0.1:${closedPort}/`)).toEqual({
      ok: false,
      status: null,
      error: "connection failed (ECONNREFUSED)",
      permanent: false,
    });
  });
});
