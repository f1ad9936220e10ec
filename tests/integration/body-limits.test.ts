// Every route that reads a body reads it under its cap, while it streams (lib/config/body-limits.ts): an
// oversized chunked body — no Content-Length to refuse it by — gets 413 in the common error shape after
// the handler pulled at most the cap (plus one chunk) of it, and next-auth never sees it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authRoute } from "@/lib/server/auth/auth-route";
import { POST as rejectPOST } from "@/app/api/proposals/[id]/reject/route";
import { jsonBody } from "@/lib/server/http/staff-route";
import { errorResponse } from "@/lib/server/http/error-response";
import { isAppError } from "@/lib/domain/outcome";
import { BODY_LIMITS, bodyTooLargeProblem } from "@/lib/config/body-limits";
import { startGatewayServer, type RouteHandler } from "../support/gateway-http-server";
import { postChunked } from "../../scripts/lib/chunked-post";

let server: Awaited<ReturnType<typeof startGatewayServer>>;

// What staffRoute does with a body once the caller is signed in: jsonBody, errors in the common shape.
const staffJsonEcho: RouteHandler = async (req) => {
  try {
    return Response.json({ keys: Object.keys(await jsonBody(req)) });
  } catch (error) {
    if (isAppError(error)) return errorResponse(error);
    throw error;
  }
};

beforeAll(async () => {
  server = await startGatewayServer({
    "/api/auth/*": {
      methods: { GET: authRoute as RouteHandler, POST: authRoute as RouteHandler },
      params: (p) => ({ nextauth: p.split("/").slice(3) }),
    },
    "/api/proposals/*": {
      methods: { POST: rejectPOST as unknown as RouteHandler },
      params: (p) => ({ id: p.split("/")[3]! }),
    },
    "/staff-json": { methods: { POST: staffJsonEcho } },
  });
});
afterAll(async () => server?.close());

/** A chunked POST of up to `totalBytes`, or with a declared Content-Length; the answer parsed as JSON. */
async function send(
  path: string,
  totalBytes: number,
  opts: { contentLength?: string; headers?: Record<string, string> } = {},
) {
  const res = await postChunked(new URL(path, server.url).toString(), totalBytes, opts);
  return { status: res.status, json: res.text ? (JSON.parse(res.text) as unknown) : null, bytesWritten: res.bytesSent };
}

describe("request bodies are capped while they stream", () => {
  it("an endless chunked body to /api/auth/callback/credentials gets 413 after at most the cap was read; next-auth never runs", async () => {
    const before = server.pulled();
    const res = await send("/api/auth/callback/credentials", 512 * 1024 * 1024);
    expect(res.status).toBe(413);
    expect(res.json).toEqual(bodyTooLargeProblem(BODY_LIMITS.auth));
    expect(server.pulled() - before).toBeLessThanOrEqual(BODY_LIMITS.auth + 64 * 1024);
    // The answer came while the client was still sending: the server did not wait for the body.
    expect(res.bytesWritten).toBeLessThan(512 * 1024 * 1024);
  });

  it("a body one byte over the auth cap is refused; a declared Content-Length over it is refused before reading", async () => {
    expect((await send("/api/auth/signin/credentials", BODY_LIMITS.auth + 1)).status).toBe(413);
    const before = server.pulled();
    const declared = await send("/api/auth/callback/credentials", 0, { contentLength: String(100 * 1024 * 1024) });
    expect(declared.status).toBe(413);
    expect(server.pulled() - before).toBe(0);
  });

  it("a staff JSON route reads nothing of a body before the caller is signed in", async () => {
    const before = server.pulled();
    const res = await send("/api/proposals/00000000-0000-4000-a000-000000000000/reject", 64 * 1024 * 1024, {
      headers: { origin: server.url, "content-type": "application/json" },
    });
    expect(res.status).toBe(401);
    expect(server.pulled() - before).toBe(0);
  });

  it("a signed-in staff JSON body over its cap gets 413 in the common shape, read no further than the cap", async () => {
    const before = server.pulled();
    const res = await send("/staff-json", 512 * 1024 * 1024, { headers: { "content-type": "application/json" } });
    expect(res.status).toBe(413);
    expect(res.json).toEqual(bodyTooLargeProblem(BODY_LIMITS.staffJson));
    expect(server.pulled() - before).toBeLessThanOrEqual(BODY_LIMITS.staffJson + 64 * 1024);
  });

  it("a staff JSON body of exactly the cap is read and parsed", async () => {
    const json = JSON.stringify({ pad: "x".repeat(BODY_LIMITS.staffJson - 10) });
    expect(Buffer.byteLength(json)).toBe(BODY_LIMITS.staffJson);
    const res = await fetch(`${server.url}/staff-json`, {
      method: "POST",
      body: json,
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ keys: ["pad"] });
    const over = await fetch(`${server.url}/staff-json`, {
      method: "POST",
      body: `${json} `,
      headers: { "content-type": "application/json" },
    });
    expect(over.status).toBe(413);
  });
});
