// Who may read GET /api/metrics (docs/observability.md), as a pure function of the request's facts:
// - METRICS_TOKEN set: exactly `Authorization: Bearer <token>` (compared in constant time), from anywhere;
// - no token configured: loopback clients only. The client is the TCP peer (stamped on the request by the
//   server process, lib/server/telemetry/peer-address.ts, overwriting whatever the client sent) — unless a
//   proxy we trust sits in front (TRUST_PROXY=1): then the peer is the proxy, and the client is the last hop
//   it appended to X-Forwarded-For. Without TRUST_PROXY, X-Forwarded-For is the client's own text (Next.js
//   keeps a value the client sent), so it is never believed.
import { createHash, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";

export type MetricsRequest = {
  authorization: string | null;
  /** The TCP peer's address as the server saw it; null when the server did not stamp it. */
  peer: string | null;
  forwardedFor: string | null;
};

export type MetricsAccess = { ok: true } | { ok: false; status: 401 | 403; reason: string };

export function isLoopback(address: string): boolean {
  const a = address
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, "");
  if (a === "::1") return true;
  const v4 = a.startsWith("::ffff:") ? a.slice(7) : a;
  return isIP(v4) === 4 && v4.startsWith("127.");
}

const digest = (s: string) => createHash("sha256").update(s).digest();

export function metricsAccess(
  req: MetricsRequest,
  config: { token: string | null; trustProxy: boolean },
): MetricsAccess {
  if (config.token) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(req.authorization ?? "");
    // Hashes of equal length: the comparison takes the same time whatever the presented token.
    if (m && timingSafeEqual(digest(m[1]!), digest(config.token))) return { ok: true };
    return {
      ok: false,
      status: 401,
      reason: "A valid metrics token is required: Authorization: Bearer <METRICS_TOKEN>.",
    };
  }
  const client = config.trustProxy ? (req.forwardedFor?.split(",").at(-1)?.trim() ?? req.peer) : req.peer;
  if (client && isLoopback(client)) return { ok: true };
  return {
    ok: false,
    status: 403,
    reason: "Metrics are served to loopback clients only; set METRICS_TOKEN to scrape from elsewhere.",
  };
}
