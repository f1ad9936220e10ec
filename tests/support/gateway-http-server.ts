// A real HTTP server on 127.0.0.1 in front of the real agent route handlers (tools, tool-calls, MCP), so the
// example agents talk to the gateway over the network exactly as they would to `npm start`.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { GET as toolsGET } from "@/app/api/agent/tools/route";
import { POST as toolCallsPOST } from "@/app/api/agent/tool-calls/route";
import { DELETE as mcpDELETE, GET as mcpGET, POST as mcpPOST } from "@/app/api/mcp/route";

type Handler = (req: Request) => Promise<Response>;
const routes: Record<string, Record<string, Handler>> = {
  "/api/agent/tools": { GET: toolsGET },
  "/api/agent/tool-calls": { POST: toolCallsPOST },
  "/api/mcp": { GET: mcpGET, POST: mcpPOST, DELETE: mcpDELETE },
};

function toRequest(req: IncomingMessage, body: Buffer, base: string): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
  const method = req.method ?? "GET";
  return new Request(new URL(req.url ?? "/", base), { method, headers, body: method === "GET" || method === "HEAD" ? undefined : new Uint8Array(body) });
}

export async function startGatewayServer(): Promise<{ url: string; close: () => Promise<void> }> {
  let base = "http://127.0.0.1";
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const handler = routes[new URL(req.url ?? "/", base).pathname]?.[req.method ?? "GET"];
      if (!handler) {
        res.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}');
        return;
      }
      void (async () => {
        const response = await handler(toRequest(req, Buffer.concat(chunks), base));
        res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
        res.end(Buffer.from(await response.arrayBuffer()));
      })().catch(() => res.writeHead(500).end());
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: base, close: () => new Promise<void>((r) => server.close(() => r())) };
}
