import { describe, expect, it } from "vitest";
// @ts-expect-error -- next.config.js is plain JavaScript (checked with // @ts-check), without a declaration file
import nextConfig from "../../next.config.js";
import { BODY_LIMITS, bodyTooLargeProblem, readCappedBody } from "./body-limits";

/** A request whose body is produced chunk by chunk (no Content-Length: chunked), counting what was pulled. */
function streamedRequest(chunkSize: number, totalBytes: number) {
  const seen = { pulled: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.pulled >= totalBytes) return controller.close();
      const n = Math.min(chunkSize, totalBytes - seen.pulled);
      seen.pulled += n;
      controller.enqueue(new Uint8Array(n).fill(0x61));
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  const req = new Request("http://app.test/x", { method: "POST", body, duplex: "half" } as RequestInit);
  return { req, seen };
}

describe("readCappedBody", () => {
  it("reads a body of exactly the cap, and refuses one byte more", async () => {
    const at = await readCappedBody(streamedRequest(1000, 4096).req, 4096);
    expect(at.ok && at.bytes.byteLength).toBe(4096);
    expect(await readCappedBody(streamedRequest(1000, 4097).req, 4096)).toEqual({ ok: false, reason: "too_large" });
  });

  it("stops an endless chunked body as soon as it passes the cap (never reads it whole)", async () => {
    const { req, seen } = streamedRequest(1024, 1024 * 1024 * 1024);
    expect(await readCappedBody(req, 16 * 1024)).toEqual({ ok: false, reason: "too_large" });
    expect(seen.pulled).toBeLessThanOrEqual(16 * 1024 + 2 * 1024);
    expect(seen.cancelled).toBe(true);
  });

  it("refuses a declared Content-Length over the cap, or one that is not a number, before reading", async () => {
    for (const declared of ["16385", "1e9", "-1", "12 34", "99999999999999999999"]) {
      const { req, seen } = streamedRequest(1024, 1024 * 1024 * 1024);
      const withLength = new Request(req, { headers: { "content-length": declared } });
      expect(await readCappedBody(withLength, 16 * 1024)).toEqual({ ok: false, reason: "too_large" });
      expect(seen.pulled).toBeLessThan(16 * 1024);
    }
  });

  it("does not believe a Content-Length that understates the body", async () => {
    const { req } = streamedRequest(4096, 64 * 1024);
    expect(await readCappedBody(new Request(req, { headers: { "content-length": "10" } }), 16 * 1024)).toEqual({
      ok: false,
      reason: "too_large",
    });
  });

  it("reads UTF-8 text and the exact bytes", async () => {
    const body = await readCappedBody(new Request("http://app.test/x", { method: "POST", body: "héllo" }), 100);
    expect(body.ok && body.text).toBe("héllo");
    expect(body.ok && body.bytes.byteLength).toBe(6);
    expect(await readCappedBody(new Request("http://app.test/x"), 100)).toEqual({
      ok: true,
      bytes: new Uint8Array(0),
      text: "",
    });
  });
});

describe("body limits", () => {
  it("answers in the common error shape", () => {
    expect(bodyTooLargeProblem(16)).toEqual({
      code: "invalid_arguments",
      error: {
        message: "The request body is larger than 16 bytes.",
        problems: [{ path: "$", expected: "at most 16 bytes", message: "The request body is larger than 16 bytes." }],
      },
    });
  });

  it("next.config.js caps server actions at the table's value, and copies enough for proxy.ts to see a body over it", () => {
    const experimental = (
      nextConfig as { experimental?: { serverActions?: { bodySizeLimit?: string }; proxyClientMaxBodySize?: string } }
    ).experimental;
    const kb = (v: string | undefined) => Number(/^(\d+)kb$/.exec(v ?? "")?.[1]) * 1024;
    expect(kb(experimental?.serverActions?.bodySizeLimit)).toBe(BODY_LIMITS.serverAction);
    // A copy cut short must still be over the cap (chunks are at most 64 KiB).
    expect(kb(experimental?.proxyClientMaxBodySize)).toBeGreaterThanOrEqual(BODY_LIMITS.serverAction + 64 * 1024 + 1);
    expect(BODY_LIMITS.auth).toBeLessThanOrEqual(64 * 1024);
    expect(BODY_LIMITS.staffJson).toBeLessThanOrEqual(64 * 1024);
    expect(BODY_LIMITS.agent).toBe(256 * 1024);
  });
});
