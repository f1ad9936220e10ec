// A shop's action endpoint for a browser spec (docs/action-endpoint.md), in the test process: it checks the Standard
// Webhooks signature with the secret the product generated, as the sandbox shop does (a GET signs the key it asks
// about), carries each idempotency key out once and answers the same for it again, and 404 for a key it never saw.
// The tenant's admin saves its URL through the product (the secret is shown once); `close` removes the endpoint.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, type Page } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { staff } from "./auth";
import { withDb } from "./db";
import { baseURL } from "./gateway";

export type ShopStandIn = {
  /** Each action carried out (a key the stand-in had not seen), in order. */
  received: { key: string; body: Record<string, unknown> }[];
  /** The `order` of each quote asked for (with `opts.quote`), in order. */
  quotes: string[];
  close(): Promise<void>;
};

/**
 * Starts the stand-in and saves it as the tenant's action endpoint, as the tenant's admin (signed in on `page`, within
 * the step-up window) would. Every new action is answered `{status: "succeeded", reference}`. With `opts.quote`, it
 * also answers an admin-declared action's derive request (`GET /store-credit/quote?order=N`, signed over the path and
 * query as sent, as the sandbox shop checks it) with that JSON.
 */
export async function startShopStandIn(
  page: Page,
  tenantSlug: string,
  reference: string,
  opts: { quote?: unknown } = {},
): Promise<ShopStandIn> {
  let secret = "";
  const received: ShopStandIn["received"] = [];
  const quotes: string[] = [];
  const answers = new Map<string, string>();
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c.toString()));
    req.on("end", () => {
      const headers = {
        "webhook-id": String(req.headers["webhook-id"] ?? ""),
        "webhook-timestamp": String(req.headers["webhook-timestamp"] ?? ""),
        "webhook-signature": String(req.headers["webhook-signature"] ?? ""),
      };
      const url = new URL(req.url ?? "/", "http://shop.test");
      if (opts.quote !== undefined && req.method === "GET" && url.pathname === "/store-credit/quote") {
        try {
          new Webhook(secret).verify(req.url ?? "", headers, { jsonParse: false });
        } catch {
          res.writeHead(401, { "content-type": "application/json" }).end('{"error":"invalid_signature"}');
          return;
        }
        quotes.push(url.searchParams.get("order") ?? "");
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(opts.quote));
        return;
      }
      const key = decodeURIComponent(/^\/actions\/([^/?]+)/.exec(url.pathname)?.[1] ?? "");
      try {
        new Webhook(secret).verify(req.method === "GET" ? key : raw, headers, { jsonParse: false });
      } catch {
        res.writeHead(401, { "content-type": "application/json" }).end('{"error":"invalid_signature"}');
        return;
      }
      if (req.method === "GET") {
        const known = answers.get(key);
        res.writeHead(known ? 200 : 404, { "content-type": "application/json" }).end(known ?? '{"error":"not_found"}');
        return;
      }
      const body = JSON.parse(raw) as { idempotency_key: string };
      if (!answers.has(body.idempotency_key)) {
        received.push({ key: body.idempotency_key, body });
        answers.set(body.idempotency_key, JSON.stringify({ status: "succeeded", reference }));
      }
      res.writeHead(200, { "content-type": "application/json" }).end(answers.get(body.idempotency_key));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const close = async () => {
    await withDb((c) =>
      c.query(`DELETE FROM "ActionEndpoint" WHERE "tenantId" = (SELECT id FROM "Tenant" WHERE slug = $1)`, [
        tenantSlug,
      ]),
    );
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  try {
    const admin = staff(tenantSlug, "admin");
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/actions`;
    const saved = await page.request.put("/api/admin/action-endpoint", {
      data: { url, stepUpPassword: admin.password },
      headers: { origin: new URL(baseURL).origin },
    });
    expect(saved.status(), await saved.text()).toBe(200);
    secret = ((await saved.json()) as { secret: string }).secret;
  } catch (e) {
    await close();
    throw e;
  }
  return { received, quotes, close };
}

/**
 * Allows a kind's tool on the tenant's channels and their keys (as Admin → Channels would); the returned function puts
 * every list back exactly as it was — the demo seed may allow the tool already, and a later spec must find it so.
 */
export async function allowTool(tenantSlug: string, tool: string): Promise<() => Promise<void>> {
  const before = await withDb(async (c) => {
    const rows: { table: string; id: string; allowedTools: string[] }[] = [];
    for (const table of ["Channel", "AgentKey"]) {
      const { rows: found } = await c.query<{ id: string; allowedTools: string[] }>(
        `SELECT id, "allowedTools" FROM "${table}" WHERE "tenantId" = (SELECT id FROM "Tenant" WHERE slug = $1)`,
        [tenantSlug],
      );
      rows.push(...found.map((r) => ({ table, ...r })));
      await c.query(
        `UPDATE "${table}" SET "allowedTools" = array_remove("allowedTools", $1) || ARRAY[$1]
          WHERE "tenantId" = (SELECT id FROM "Tenant" WHERE slug = $2)`,
        [tool, tenantSlug],
      );
    }
    return rows;
  });
  return () =>
    withDb(async (c) => {
      for (const r of before)
        await c.query(`UPDATE "${r.table}" SET "allowedTools" = $2 WHERE id = $1`, [r.id, r.allowedTools]);
    });
}
