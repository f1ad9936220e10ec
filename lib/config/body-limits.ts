// How many bytes each kind of route reads from a request body, at most (docs/architecture.md, "Request
// bodies"). Every body is read through readCappedBody (below), which enforces
// the cap while the body streams — a missing or lying Content-Length does not get past it — and the answer
// is 413 with the common error shape. No I/O of its own:
// proxy.ts, the route handlers and next.config.js's test share it.

const KiB = 1024;

export const BODY_LIMITS = {
  /** /api/auth/* (next-auth): a sign-in form, a CSRF token, a callbackUrl. */
  auth: 16 * KiB,
  /** Staff JSON routes (staffRoute → jsonBody): decisions, admin changes, preferences. */
  staffJson: 32 * KiB,
  /** Staff routes that carry a WebAuthn response (attestation objects, post-quantum signatures). */
  passkey: 64 * KiB,
  /** Server actions (next.config.js `experimental.serverActions.bodySizeLimit`, and proxy.ts before it). */
  serverAction: 64 * KiB,
  /** The agent API (/api/agent/tool-calls), MCP (/api/mcp) and the payment provider's webhook. */
  agent: 256 * KiB,
  /** The bulk Orders API (POST /api/v1/orders/batch): up to 1,000 orders in one body. */
  ordersBatch: 4 * 1024 * KiB,
} as const;

/** The answer to a body over its cap, in the common error shape (sent with HTTP 413). */
export function bodyTooLargeProblem(max: number) {
  const message = `The request body is larger than ${max} bytes.`;
  return {
    code: "invalid_arguments" as const,
    error: { message, problems: [{ path: "$", expected: `at most ${max} bytes`, message }] },
  };
}

export type CappedBody =
  { ok: true; bytes: Uint8Array<ArrayBuffer>; text: string } | { ok: false; reason: "too_large" | "unreadable" };

/**
 * Reads a request body, at most `max` bytes, while it streams: a declared Content-Length over the cap is
 * refused before reading anything, and an undeclared (chunked) or understated body is cancelled as soon as
 * it passes the cap, so a 100 MB body is never buffered whole. The one reader of request bodies: the caps
 * per route are above. Web APIs only, so proxy.ts can use it as well as the route handlers.
 */
export async function readCappedBody(req: Request, max: number): Promise<CappedBody> {
  const declared = req.headers.get("content-length");
  if (declared !== null && (!/^\d{1,15}$/.test(declared) || Number(declared) > max)) {
    await req.body?.cancel().catch(() => undefined);
    return { ok: false, reason: "too_large" };
  }
  if (!req.body) return { ok: true, bytes: new Uint8Array(0), text: "" };
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > max) {
        await reader.cancel().catch(() => undefined);
        return { ok: false, reason: "too_large" };
      }
      chunks.push(value);
    }
  } catch {
    return { ok: false, reason: "unreadable" };
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return { ok: true, bytes, text: new TextDecoder().decode(bytes) };
}
