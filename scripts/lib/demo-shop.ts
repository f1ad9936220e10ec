// Demo: the sandbox shop (shop-sandbox/, docs/shop-sandbox.md) behind each demo tenant's action endpoint, so the
// kinds carried out by the shop — the address change and the order cancellation — work in `npm start`. One shop
// process per demo tenant (each tenant is its own shop, with its own signing secret), each on its own port and its own
// database on the demo's PostgreSQL server. What scripts/start.ts needs without loading the app's data layer: the
// ports, the databases, the shop's argv and environment, and telling each shop the demo orders it does not know yet.
// Saving the endpoints (the app's own use case) is demo-shop-endpoints.ts.
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { withPgClient } from "../../lib/server/db/pg-client";
import type { ShopControl } from "../../shop-sandbox/control-client";
import type { OrderStatus } from "../../shop-sandbox/store";
import { demoTenants } from "./demo-data";
import { findFreePort, isPortFree } from "./embedded-postgres";

/** The first demo tenant's shop listens here (npm run shop:sandbox's default), the next on the following port. */
export const DEMO_SHOP_FIRST_PORT = 12112;

export type DemoShopPlan = {
  tenant: string;
  port: number;
  /** The shop's base URL; the action endpoint is `${url}/actions`. */
  url: string;
  /** The shop's own database, on the demo's server. */
  databaseUrl: string;
  /** Bearer token of its control endpoint, made for this run. */
  controlToken: string;
};

/** Thrown when an explicitly asked port is taken: the message names the variable to change. */
export class DemoShopPortTaken extends Error {}

/**
 * One shop per demo tenant. SHOP_SANDBOX_PORT: the first tenant's shop on that port and the next on the ports after
 * it, or a refusal naming the variable ("0": any free ports); unset: 12112, 12113, or a free port for each one taken
 * (another instance's shop). `anyPort` (the browser tests' throw-away instance) always takes free ports. Never one of
 * `avoid` (a port the payment sandbox was told to take, which it has not bound yet).
 */
export async function planDemoShops(opts: {
  serverUrl: string;
  env: Record<string, string | undefined>;
  anyPort?: boolean;
  avoid?: number[];
}): Promise<DemoShopPlan[]> {
  const wanted = opts.env.SHOP_SANDBOX_PORT ?? (opts.anyPort ? "0" : "");
  const plans: DemoShopPlan[] = [];
  const taken = new Set<number>(opts.avoid ?? []);
  for (const [i, t] of demoTenants.entries()) {
    let port: number;
    if (wanted === "0") port = await freePortBesides(taken);
    else if (wanted) {
      port = Number(wanted) + i;
      if (!Number.isInteger(port) || port <= 0 || port > 65_535 || taken.has(port) || !(await isPortFree(port)))
        throw new DemoShopPortTaken(
          `port ${port} for ${t.slug}'s sandbox shop is taken (another instance's shop?); set SHOP_SANDBOX_PORT to a free port (its tenants' shops take it and the ports after it), or to 0 for any`,
        );
    } else {
      const preferred = DEMO_SHOP_FIRST_PORT + i;
      port = !taken.has(preferred) && (await isPortFree(preferred)) ? preferred : await freePortBesides(taken);
    }
    taken.add(port);
    plans.push({
      tenant: t.slug,
      port,
      url: `http://127.0.0.1:${port}`,
      databaseUrl: databaseOn(opts.serverUrl, demoShopDatabase(t.slug)),
      controlToken: `ctl_${randomBytes(24).toString("base64url")}`,
    });
  }
  return plans;
}

/** The shop's own database on the demo's server: `shop_sandbox_<tenant>`. */
export const demoShopDatabase = (tenantSlug: string) => `shop_sandbox_${tenantSlug.replace(/[^a-z0-9]/g, "_")}`;

function databaseOn(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  url.search = "";
  return url.toString();
}

async function freePortBesides(taken: Set<number>): Promise<number> {
  for (;;) {
    const port = await findFreePort();
    if (!taken.has(port)) return port;
  }
}

/** `node …` arguments of one shop process (scripts/shop-sandbox.ts). Its secrets go by environment (demoShopEnv). */
export function demoShopArgs(plan: DemoShopPlan): string[] {
  return [
    "--conditions=react-server",
    "--import",
    "tsx",
    join("scripts", "shop-sandbox.ts"),
    "--port",
    String(plan.port),
    "--database-url",
    plan.databaseUrl,
  ];
}

/**
 * The shop's environment: an outside system gets nothing of the app's (no DATABASE_URL, no SECRETS_KEY); the signing
 * secret and the control token by environment, not argv (which `ps` shows to every local user).
 */
export function demoShopEnv(plan: DemoShopPlan, signingSecret: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: "production",
    SHOP_SANDBOX_SIGNING_SECRET: signingSecret,
    SHOP_SANDBOX_CONTROL_TOKEN: plan.controlToken,
  };
  for (const k of ["PATH", "HOME", "TMPDIR", "TZ", "LANG"]) if (process.env[k]) env[k] = process.env[k];
  return env;
}

/** Where the shop stands on an order of ours: cancelled, else its fulfilment. */
export function shopStatusOf(order: { status: string; fulfilment: string }): OrderStatus {
  if (order.status === "cancelled") return "cancelled";
  return order.fulfilment === "shipped" || order.fulfilment === "delivered" ? order.fulfilment : "unfulfilled";
}

/**
 * The shop owns fulfilment: it must know the tenant's orders before it can cancel one or change its address. Each
 * order it does not know yet is created with our copy's state (unfulfilled / shipped / delivered / cancelled) and
 * shipping address; an order it knows is left as the shop has it (its database lives beside the demo's and is reset
 * with it by `npm run demo:reset`). Answers how many it was told about.
 */
export async function tellShopDemoOrders(databaseUrl: string, tenantSlug: string, control: ShopControl) {
  const rows = await withPgClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{
      number: string;
      status: string;
      fulfilment: string;
      shippingAddress: Record<string, unknown> | null;
      customerName: string;
      totalMinor: number;
      currency: string;
    }>(
      `SELECT o.number, o.status::text AS status, o.fulfilment::text AS fulfilment, o."shippingAddress",
              c.name AS "customerName", o."totalMinor", trim(o.currency) AS currency
         FROM "Order" o JOIN "Tenant" t ON t.id = o."tenantId"
         JOIN "Customer" c ON c."tenantId" = o."tenantId" AND c.id = o."customerId"
        WHERE t.slug = $1 ORDER BY o.number`,
      [tenantSlug],
    );
    return rows;
  });
  let told = 0;
  await Promise.all(
    rows.map(async (o) => {
      if (await control.order(o.number)) return;
      // The buyer and the total: what the shop's store-credit quote answers (the declared issue_store_credit).
      const { customerName, totalMinor, currency } = o;
      await control.setOrder(o.number, {
        status: shopStatusOf(o),
        shippingAddress: o.shippingAddress,
        customerName,
        totalMinor,
        currency,
      });
      told += 1;
    }),
  );
  return told;
}
