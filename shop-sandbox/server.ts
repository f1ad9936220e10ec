// The sandbox shop: an outside system standing for a tenant's own shop, implementing the tenant's **action
// endpoint** (docs/shop-sandbox.md): Standard-Webhooks-signed `POST /actions` that cancels an order or changes its
// shipping address exactly once per idempotency key, and `GET /actions/{key}` that answers what was done. A plain
// node:http server with its own PostgreSQL store (store.ts), switchable faults (faults.ts) and a control endpoint
// (control.ts); the routes are routes.ts, the kinds actions.ts. It imports nothing from the app (only node, `pg`
// and `standardwebhooks`). This file is the process around them: start and shutdown.
import { createServer } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import pg from "pg";
import { Webhook } from "standardwebhooks";
import type { ControlState } from "./control";
import { FaultBoard } from "./faults";
import { shopRoutes } from "./routes";
import { ensureDatabase, ensureSchema } from "./store";

export type ShopSandboxOptions = {
  /** URL of the shop's own database (created when missing, on the same server). */
  databaseUrl: string;
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** The action endpoint's Standard Webhooks signing secret (`whsec_<base64>`), shared with the gateway. */
  signingSecret: string;
  /** Bearer token of the `/__control/…` endpoints. */
  controlToken: string;
  log?: (line: string) => void;
};

export type ShopSandbox = { url: string; port: number; close: () => Promise<void> };

export async function startShopSandbox(options: ShopSandboxOptions): Promise<ShopSandbox> {
  const log = options.log ?? (() => undefined);
  if (!options.controlToken) throw new Error("the shop needs a control token");
  if (!/^whsec_[A-Za-z0-9+/]+={0,2}$/.test(options.signingSecret ?? ""))
    throw new Error("the shop's signing secret must be a Standard Webhooks secret: whsec_ and base64");
  const webhook = new Webhook(options.signingSecret);

  await ensureDatabase(options.databaseUrl);
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 20 });
  let stopping = false;
  pool.on("error", (error) => {
    if (!stopping) log(`database pool error: ${error.message}`);
  });
  await ensureSchema(pool);

  const faults = new FaultBoard();
  const stats: Record<string, number> = {
    actions: 0,
    reads: 0,
    replayed: 0,
    idempotencyMismatches: 0,
    unauthorized: 0,
    failed5xx: 0,
    hung: 0,
    dropped: 0,
    deferred: 0,
  };
  const control: ControlState = { pool, faults, stats };
  const sockets = new Set<Socket>();
  const { handle, send, parked } = shopRoutes({
    pool,
    faults,
    webhook,
    controlToken: options.controlToken,
    control,
    stats,
  });

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`request failed: ${error instanceof Error ? error.message : String(error)}`);
      send(res, { status: 500, body: { error: "server_error", message: "the shop failed on this request" } });
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  }).catch(async (error: unknown) => {
    await pool.end();
    throw error;
  });
  const port = (server.address() as AddressInfo).port;

  let closing: Promise<void> | null = null;
  return {
    url: `http://${options.host ?? "127.0.0.1"}:${port}`,
    port,
    close: () =>
      (closing ??= (async () => {
        stopping = true;
        for (const res of parked) res.destroy();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
          setTimeout(() => {
            for (const socket of sockets) socket.destroy();
          }, 1_000).unref();
        });
        await pool.end();
      })()),
  };
}
