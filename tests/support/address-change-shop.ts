// What every integration file about the address-change kind sets up, once: the tool allowed on the demo web
// channel (a new tool is allowed nowhere until an admin allows it), the real sandbox shop as a process behind a
// tenant's action endpoint (the admin saves the endpoint, the product generates the secret, the shop's operator
// configures it), and fresh orders copied from the demo's ORD-1001.
import { randomBytes, randomUUID } from "node:crypto";
import { inject } from "vitest";
import { shopControl, type ShopControl } from "@/shop-sandbox/control-client";
import { setActionEndpoint } from "@/lib/server/admin/action-endpoint/set-action-endpoint";
import { db } from "@/lib/server/db/client";
import { withPgClient } from "@/lib/server/db/pg-client";
import { findFreePort } from "../../scripts/lib/embedded-postgres";
import { actorFor, staffOf } from "./actors";
import { startShopProcess } from "./shop-process";

export const ADDRESS_CHANGE_TOOL = "prepare_address_change";
export const CANCELLATION_TOOL = "prepare_order_cancellation";

/** Allows prepare_address_change on these tenants' web_support channel and its keys (once per tenant). */
export async function allowAddressChangeTool(tenants: string[]): Promise<void> {
  await allowKindTool(tenants, ADDRESS_CHANGE_TOOL);
}

/** Allows a kind's tool on these tenants' web_support channel and its keys, as their admin would (once per tenant). */
export async function allowKindTool(tenants: string[], tool: string): Promise<void> {
  for (const slug of tenants) {
    const tenant = await db().tenant.findUniqueOrThrow({ where: { slug } });
    const channel = await db().channel.findFirstOrThrow({ where: { tenantId: tenant.id, slug: "web_support" } });
    if (!channel.allowedTools.includes(tool))
      await db().channel.update({ where: { id: channel.id }, data: { allowedTools: { push: tool } } });
    const keys = await db().agentKey.findMany({
      where: { channelId: channel.id },
      select: { id: true, allowedTools: true },
    });
    for (const key of keys.filter((k) => !k.allowedTools.includes(tool)))
      await db().agentKey.update({ where: { id: key.id }, data: { allowedTools: { push: tool } } });
  }
}

/**
 * The tenant's action endpoint saved by its admin and served by a real sandbox shop process (its own database on the
 * test server). `stop` ends the process and drops its database. Sets SECRETS_KEY (the endpoint's secret is sealed).
 */
export async function startShopBehindEndpoint(
  tenant: string,
): Promise<{ control: ShopControl; stop(): Promise<void> }> {
  const serverUrl = inject("serverUrl");
  const shopDb = `shop_sandbox_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
  const controlToken = `ctl_${randomUUID()}`;
  const port = await findFreePort();
  const admin = await actorFor(staffOf(tenant, "admin").email);
  process.env.SECRETS_KEY = randomBytes(32).toString("base64");
  const saved = await setActionEndpoint(admin, { url: `http://127.0.0.1:${port}/actions` });
  const shop = await startShopProcess({
    port,
    databaseUrl: serverUrl.replace(/\/postgres$/, `/${shopDb}`),
    signingSecret: saved.secret!,
    controlToken,
  });
  return {
    control: shopControl(`http://127.0.0.1:${port}`, controlToken),
    async stop() {
      await shop.stop();
      delete process.env.SECRETS_KEY;
      await withPgClient(serverUrl, (a) => a.query(`DROP DATABASE IF EXISTS "${shopDb}" WITH (FORCE)`));
    },
  };
}

let seq = 0;

/**
 * A fresh unfulfilled order of the demo customer of ORD-1001 (tienda-es), copied from it under a new number; known
 * to the shop too when its control is given (the shop owns fulfilment).
 */
export async function copyDemoOrder(prefix: string, control?: ShopControl): Promise<string> {
  const template = await db().order.findFirstOrThrow({ where: { number: "ORD-1001", tenant: { slug: "tienda-es" } } });
  const number = `ORD-${prefix}${Date.now().toString(36)}${++seq}`.toUpperCase();
  const { id: _id, updatedAt: _u, number: _n, ...rest } = template;
  await db().order.create({
    data: { ...rest, number, items: rest.items ?? [], shippingAddress: rest.shippingAddress ?? undefined },
  });
  if (control) await control.setOrder(number, { status: "unfulfilled" });
  return number;
}
