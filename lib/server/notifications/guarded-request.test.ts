// guardedRequest (the GET beside guardedPost) against a real HTTP server on 127.0.0.1: a GET sends no body, the
// answer is capped, and a failure says why (the URL refused, a name resolving inside the network, the timeout, a
// refused connection). DNS is mocked so that a public-looking name resolves to loopback.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("node:dns", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:dns")>();
  const lookup = (hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (hostname !== "shop.example.test") return real.lookup(hostname, options as never, callback as never);
    const addresses = [{ address: "127.0.0.1", family: 4 }];
    return options.all ? callback(null, addresses) : callback(null, "127.0.0.1", 4);
  };
  return { ...real, default: { ...real, lookup }, lookup };
});

const { guardedRequest } = await import("./guarded-post");

let server: Server;
let port: number;
const seen: { method: string; url: string; length: string | undefined; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === "/hang") return;
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", length: req.headers["content-length"], body });
      res.writeHead(req.url === "/big" ? 200 : 404, { "content-type": "application/json" });
      res.end(req.url === "/big" ? "x".repeat(5000) : '{"error":"not_found"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const get = (url: string, opts: { allowPrivate?: boolean; timeoutMs?: number; max?: number } = {}) =>
  guardedRequest({
    method: "GET",
    url,
    headers: { "webhook-id": "m1" },
    timeoutMs: opts.timeoutMs ?? 2_000,
    allowPrivate: opts.allowPrivate ?? true,
    maxResponseBytes: opts.max ?? 1024,
    label: "action endpoint",
  });

describe("guardedRequest GET", () => {
  it("sends no body and reads the answer", async () => {
    expect(await get(`http://127.0.0.1:${port}/actions/k%201`)).toEqual({
      ok: true,
      status: 404,
      body: '{"error":"not_found"}',
      complete: true,
    });
    expect(seen.at(-1)).toEqual({ method: "GET", url: "/actions/k%201", length: undefined, body: "" });
  });

  it("caps the answer", async () => {
    expect(await get(`http://127.0.0.1:${port}/big`, { max: 100 })).toMatchObject({ ok: true, complete: false });
  });

  it("names the failure: URL refused, internal address at connect time, timeout, connection", async () => {
    expect(await get(`http://127.0.0.1:${port}/x`, { allowPrivate: false })).toMatchObject({
      ok: false,
      permanent: true,
      failure: "url_refused",
    });
    expect(await get(`http://shop.example.test:${port}/x`, { allowPrivate: false })).toMatchObject({
      ok: false,
      failure: "internal_address",
    });
    expect(await get(`http://127.0.0.1:${port}/hang`, { timeoutMs: 200 })).toMatchObject({
      ok: false,
      failure: "timeout",
      error: "timeout after 200 ms",
    });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await get(`http://127.0.0.1:${closedPort}/x`)).toMatchObject({ ok: false, failure: "connection" });
  });
});
