import "server-only";
import { Server, type IncomingMessage } from "node:http";

// The TCP peer of a request, for the one rule that needs it (GET /api/metrics without a token: loopback only).
// Next.js route handlers see headers only, and X-Forwarded-For is whatever the client sent when nothing is in
// front (Next.js fills it from the socket only when it is absent). So the server process stamps the socket's
// address on every incoming request under a header of its own, overwriting any value the client sent.

export const PEER_HEADER = "x-approvalgw-peer";
const INSTALLED = Symbol.for("approvalgw.peerStamp");

/** Installs the stamp on every node:http server of this process (instrumentation.ts; tests' own servers). */
export function stampPeerAddress(): void {
  const g = globalThis as unknown as Record<symbol, boolean | undefined>;
  if (g[INSTALLED]) return;
  g[INSTALLED] = true;
  type Emit = (this: Server, event: string | symbol, ...rest: unknown[]) => boolean;
  const emit = Reflect.get(Server.prototype, "emit") as Emit;
  Server.prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]) {
    if (event === "request") {
      const req = args[0] as IncomingMessage;
      req.headers[PEER_HEADER] = req.socket?.remoteAddress ?? "";
    }
    return emit.call(this, event, ...args);
  } as typeof Server.prototype.emit;
}

/** The stamped peer address; null when this process does not stamp (then a client-sent value means nothing). */
export function peerAddress(headers: Headers): string | null {
  if (!(globalThis as unknown as Record<symbol, boolean | undefined>)[INSTALLED]) return null;
  return headers.get(PEER_HEADER) || null;
}
