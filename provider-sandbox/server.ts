// The sandbox payment provider: a plain node:http server speaking a subset of Stripe's refunds API
// (form-encoded requests, Stripe-shaped JSON, Stripe's idempotency semantics), with its own PostgreSQL
// store (store.ts), switchable faults (faults.ts) and signed webhooks (webhooks.ts); the routes are routes.ts.
// This file is the process around them: start, background pass, shutdown. See docs/provider-sandbox.md.
import { createServer } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import pg from "pg";
import { ensureDefaultAccount } from "./accounts";
import type { ControlState } from "./control";
import { FaultBoard } from "./faults";
import { stripeError } from "./objects";
import { REFUND_MODES, settleDueRefunds, type Behaviour } from "./refunds";
import { sandboxRoutes } from "./routes";
import { ensureDatabase, ensureSchema } from "./store";
import { deliverDueEvents, type DeliveryPolicy } from "./webhooks";

export type SandboxProviderOptions = {
  /** URL of the sandbox's own database (created when missing, on the same server). */
  databaseUrl: string;
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /**
   * The default account's secret keys (`sk_test_…`, several = one account's secret and restricted keys); requests
   * must send a key as `Authorization: Bearer`. Other accounts' keys are registered at `/__control/accounts`.
   */
  apiKey: string | string[];
  /** Bearer token of the `/__control/…` endpoints. */
  controlToken: string;
  /** The default account's webhook endpoint (without it the default account records no events). */
  webhookUrl?: string;
  webhookSecret?: string;
  /** Webhook retries: attempts in all (default 8) and the first backoff (default 500 ms, doubling). */
  webhookMaxAttempts?: number;
  webhookBaseDelayMs?: number;
  /** How often pending refunds and due webhooks are looked at (default 100 ms). */
  tickMs?: number;
  log?: (line: string) => void;
};

export type SandboxProvider = { url: string; port: number; close: () => Promise<void> };

export async function startSandboxProvider(options: SandboxProviderOptions): Promise<SandboxProvider> {
  const log = options.log ?? (() => undefined);
  const apiKeys = (Array.isArray(options.apiKey) ? options.apiKey : [options.apiKey]).filter(Boolean);
  if (apiKeys.length === 0) throw new Error("the sandbox needs at least one API key");
  if (!options.controlToken) throw new Error("the sandbox needs a control token");
  if (options.webhookUrl && !options.webhookSecret) throw new Error("a webhook URL needs a webhook secret");

  await ensureDatabase(options.databaseUrl);
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 20 });
  let stopping = false;
  pool.on("error", (error) => {
    if (!stopping) log(`database pool error: ${error.message}`);
  });
  await ensureSchema(pool);
  await ensureDefaultAccount(
    pool,
    options.webhookUrl ? { url: options.webhookUrl, secret: options.webhookSecret! } : null,
  );

  const faults = new FaultBoard();
  const stats: Record<string, number> = {
    createRefund: 0,
    replayed: 0,
    idempotencyConflicts: 0,
    idempotencyMismatches: 0,
    failed5xx: 0,
    hung: 0,
    dropped: 0,
  };
  const stored = await pool.query<{ value: Behaviour }>("SELECT value FROM settings WHERE key = 'behaviour'");
  let behaviour: Behaviour = stored.rows[0]?.value ?? { mode: "succeed", delayMs: 500 };
  const delivery: DeliveryPolicy = {
    maxAttempts: options.webhookMaxAttempts ?? 8,
    baseDelayMs: options.webhookBaseDelayMs ?? 500,
    timeoutMs: 5_000,
  };
  const control: ControlState = {
    pool,
    defaultKeys: apiKeys,
    faults,
    get behaviour() {
      return behaviour;
    },
    setBehaviour: async (b) => {
      if (!REFUND_MODES.includes(b.mode)) throw new Error(`unknown refund mode ${b.mode}`);
      await pool.query(
        "INSERT INTO settings (key, value) VALUES ('behaviour', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
        [JSON.stringify(b)],
      );
      behaviour = b;
    },
    stats,
  };

  const sockets = new Set<Socket>();
  const { handle, send, parked } = sandboxRoutes({
    pool,
    faults,
    apiKeys,
    controlToken: options.controlToken,
    control,
    behaviour: () => behaviour,
    stats,
  });

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`request failed: ${error instanceof Error ? error.message : String(error)}`);
      send(res, stripeError(500, "api_error", "An unknown error occurred."));
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  // Background: settle pending refunds that are due, deliver webhooks. One pass at a time.
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  const tick = async () => {
    await settleDueRefunds(pool);
    await deliverDueEvents(pool, delivery, log);
  };
  const schedule = () => {
    if (stopping) return;
    timer = setTimeout(() => {
      running = tick()
        .catch((error: unknown) =>
          log(`background pass failed: ${error instanceof Error ? error.message : String(error)}`),
        )
        .finally(schedule);
    }, options.tickMs ?? 100);
  };
  schedule();

  let closing: Promise<void> | null = null;
  return {
    url: `http://${options.host ?? "127.0.0.1"}:${port}`,
    port,
    close: () =>
      (closing ??= (async () => {
        stopping = true;
        if (timer) clearTimeout(timer);
        await running;
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
