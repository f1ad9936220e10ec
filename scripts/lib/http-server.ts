// The production HTTP server's socket settings (scripts/serve.ts; docs/operations.md "Keep-alive").
//
// Node closes an idle keep-alive connection after 5 s. A client that reuses a pooled connection just as the
// server closes it gets ECONNRESET on a request the server never read: a browser retries that, but API clients
// (Playwright's request context, a load balancer's pool) report it as a failure. CI run 54 failed that way. The
// server therefore keeps idle connections longer than the clients and proxies in front of it do (60 s is the
// common default of load balancers), and waits for headers a little longer than that, as Node requires.
import { createServer, type RequestListener, type Server } from "node:http";

export const KEEP_ALIVE_TIMEOUT_MS = 65_000;
export const HEADERS_TIMEOUT_MS = KEEP_ALIVE_TIMEOUT_MS + 1_000;

export function createAppServer(listener: RequestListener): Server {
  const server = createServer(listener);
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  return server;
}
