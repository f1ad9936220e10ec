// Shared by bench/gateway/run.ts and bench/gateway/load.ts (and, through load.ts, bench/audit --with-load).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { customerId } from "../../scripts/lib/demo-data";
import { createPaidOrders } from "../../scripts/lib/fixtures";
import { prismaFor } from "../../scripts/lib/prisma";
import { liftWindowBudgets as liftTenantWindowBudgets } from "../../scripts/lib/lift-window-budgets";

export const TENANT = "tienda-es";

// ---- in-process route handler ----------------------------------------------------------------------

export function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Server> {
  return new Promise((resolve) => {
    const s = createServer({ keepAliveTimeout: 10_000 }, handler);
    s.listen(0, "127.0.0.1", () => resolve(s));
  });
}

export function urlOf(s: Server): string {
  const a = s.address();
  return `http://127.0.0.1:${typeof a === "object" && a ? a.port : 0}/api/agent/tool-calls`;
}

async function readAll(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** node:http → Web Request → the route handler → node:http (what Next does for a route handler). */
export function adaptRouteHandler(POST: (req: Request) => Promise<Response>) {
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readAll(req);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const response = await POST(new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body }));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(await response.text());
  };
  return (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  };
}

// ---- data ----------------------------------------------------------------------------------------

export function benchOrder(i: number, prefix = "BENCH"): string {
  return `${prefix}-${String(i).padStart(6, "0")}`;
}

/** `count` extra card orders `<prefix>-000000…` for Ana (tienda-es), so every request prepares a new proposal. */
export async function addBenchOrders(url: string, count: number, prefix = "BENCH") {
  const db = prismaFor(url);
  try {
    const tenant = await db.tenant.findUniqueOrThrow({ where: { slug: TENANT }, select: { id: true, currency: true } });
    await createPaidOrders(db, tenant, {
      count,
      customerIds: [customerId(TENANT, "ana")],
      number: (i) => benchOrder(i, prefix),
      amountMinor: (i) => 1000 + i,
      paymentRef: (number) => `pi_bench_${number}`,
      holderName: "Ana García",
    });
  } finally {
    await db.$disconnect();
  }
}

/** Lifts the per-key and per-end-user window budgets (their upserts still run on every call). */
/** The bench tenant's window budgets lifted (scripts/lib/lift-window-budgets.ts). */
export const liftWindowBudgets = (url: string) => liftTenantWindowBudgets(url, TENANT);

export function toolCallBody(order: string, n: number): string {
  return JSON.stringify({
    type: "tool_use",
    id: `bench_${n}`,
    name: "prepare_refund",
    input: { order_id: order, reason: "damaged_item" },
  });
}

export function isApprovalRequired(text: string): boolean {
  try {
    const json = JSON.parse(text) as { content?: string };
    return !!json.content && (JSON.parse(json.content) as { code?: string }).code === "approval_required";
  } catch {
    return false;
  }
}
