import "server-only";

export type CappedBody = { ok: true; text: string } | { ok: false; reason: "too_large" | "unreadable" };

/**
 * Reads a request body as UTF-8 text, at most `max` bytes, while it streams: a declared Content-Length over
 * the cap is refused before reading anything, and an undeclared (chunked) body is cancelled as soon as it
 * passes the cap, so a 10 MB body is never buffered whole. Call it only after the caller is authenticated.
 */
export async function readCappedBody(req: Request, max: number): Promise<CappedBody> {
  const declared = req.headers.get("content-length");
  if (declared !== null && (!/^\d{1,15}$/.test(declared) || Number(declared) > max)) {
    await req.body?.cancel().catch(() => undefined);
    return { ok: false, reason: "too_large" };
  }
  if (!req.body) return { ok: true, text: "" };
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
  return { ok: true, text: Buffer.concat(chunks).toString("utf8") };
}
