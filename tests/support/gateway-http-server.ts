// A real HTTP server on 127.0.0.1 in front of real route handlers, so tests talk to them over the network
// exactly as they would to `npm start`. The agent routes (tools, tool-calls, MCP) by default; other route
// handlers on request. Bodies stream into the handler as Next.js hands them over (not read first), and the
// server counts the bytes each handler actually pulled, so a test can tell that a body was never read whole.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { NextRequest } from "next/server";
import { GET as toolsGET } from "@/app/api/agent/tools/route";
import { POST as toolCallsPOST } from "@/app/api/agent/tool-calls/route";
import { DELETE as mcpDELETE, GET as mcpGET, POST as mcpPOST } from "@/app/api/mcp/route";

export type RouteHandler = (
  req: NextRequest,
  context: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response>;
/** A route: its handlers by method, and the route parameters a path gives (Next.js's dynamic segments). */
export type TestRoute = {
  methods: Record<string, RouteHandler>;
  params?: (pathname: string) => Record<string, string | string[]>;
};

const agentRoutes: Record<string, TestRoute> = {
  "/api/agent/tools": { methods: { GET: toolsGET } },
  "/api/agent/tool-calls": { methods: { POST: toolCallsPOST } },
  "/api/mcp": { methods: { GET: mcpGET, POST: mcpPOST, DELETE: mcpDELETE } },
};

function toRequest(req: IncomingMessage, base: string, counter: { pulled: number }): NextRequest {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
  const method = req.method ?? "GET";
  const url = new URL(req.url ?? "/", base);
  if (method === "GET" || method === "HEAD") return new NextRequest(url, { method, headers });
  const iterator = req[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await iterator.next();
        if (done) return controller.close();
        counter.pulled += value.byteLength;
        controller.enqueue(new Uint8Array(value));
      },
      async cancel() {
        await iterator.return?.();
      },
    },
    { highWaterMark: 0 },
  );
  return new NextRequest(url, { method, headers, body, duplex: "half" });
}

/**
 * Starts the server. `routes` is matched by exact path, or by prefix when the key ends in "/*". `pulled()`
 * is how many body bytes the handlers have read so far (all requests together).
 */
export async function startGatewayServer(
  routes: Record<string, TestRoute> = agentRoutes,
): Promise<{ url: string; close: () => Promise<void>; pulled: () => number }> {
  let base = "http://127.0.0.1";
  const counter = { pulled: 0 };
  const find = (pathname: string) =>
    routes[pathname] ??
    Object.entries(routes).find(([key]) => key.endsWith("/*") && pathname.startsWith(key.slice(0, -1)))?.[1];
  const server: Server = createServer((req, res) => {
    const pathname = new URL(req.url ?? "/", base).pathname;
    const route = find(pathname);
    const handler = route?.methods[req.method ?? "GET"];
    if (!route || !handler) {
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}');
      return;
    }
    void (async () => {
      const response = await handler(toRequest(req, base, counter), {
        params: Promise.resolve(route.params?.(pathname) ?? {}),
      });
      res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
      res.end(Buffer.from(await response.arrayBuffer()));
    })().catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    pulled: () => counter.pulled,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
