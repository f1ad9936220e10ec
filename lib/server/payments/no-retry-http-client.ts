import "server-only";
import http from "node:http";
import https from "node:https";
import Stripe from "stripe";

// stripe-node re-sends a request once when the connection was reset or closed (ECONNRESET / EPIPE),
// even with maxNetworkRetries: 0, because that usually means a stale keep-alive socket. But it can
// also mean the provider committed and then dropped the connection. Retries are the reconciler's
// decision, never the client's: this wrapper renames those codes so the client reports them instead
// of re-sending, and opens a fresh connection per request so a stale socket cannot cause them.

const CLOSED = new Set(["ECONNRESET", "EPIPE"]);

export function noRetryHttpClient(protocol: "http" | "https") {
  const agent = protocol === "http" ? new http.Agent({ keepAlive: false }) : new https.Agent({ keepAlive: false });
  const inner = Stripe.createNodeHttpClient(agent);
  return {
    getClientName: () => inner.getClientName(),
    makeRequest: (...args: Parameters<typeof inner.makeRequest>) =>
      inner.makeRequest(...args).catch((error: unknown) => {
        const code = (error as { code?: unknown } | null)?.code;
        if (typeof code === "string" && CLOSED.has(code)) {
          const closed = new Error(`connection closed before the answer (${code})`, { cause: error }) as Error & {
            code: string;
          };
          closed.code = "CONNECTION_CLOSED";
          throw closed;
        }
        throw error;
      }),
  };
}
