import "server-only";
import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { from as copyFrom } from "pg-copy-streams";
import type pg from "pg";
import { isAppError } from "@/lib/domain/outcome";
import type { InputProblem } from "@/lib/domain/validation";
import type { OrderBodyInput } from "@/lib/schemas/orders-api";
import { recordAuditEvent } from "@/lib/server/audit/record-event";
import { onPgTransaction } from "@/lib/server/db/pg";
import { ormOn } from "@/lib/server/db/transaction";
import { isUniqueViolation } from "@/lib/server/db/unique-violation";
import { providerAccountOf } from "@/lib/server/payments/provider-account";
import {
  asRefusal,
  shippingAddressOf,
  storedAmounts,
  upsertOrderIn,
  type OrderWriter,
} from "@/lib/server/orders/upsert-order";

/** One order of a batch: already through the Orders API's schema (the caller refused what did not parse). */
export type BatchEntry = { number: string; body: OrderBodyInput };

export type BatchResult =
  | { number: string; outcome: "created" | "updated" | "unchanged"; invalidated: string[] }
  | { number: string; outcome: "refused"; code: string; message: string; problems: InputProblem[] };

export type BatchOptions = {
  /** What the batch's audit event says besides its counts and numbers (line range and digest, request size). */
  audit: Record<string, string | number>;
  /** The whole transaction's bound (each statement's too). */
  timeoutMs: number;
  now?: Date;
};

export type BatchReport = { results: BatchResult[]; setBased: number; perOrder: number };

/**
 * The Orders API's upsert for many orders in ONE transaction (`POST /api/v1/orders/batch`, each batch of
 * `orders:import`), with the per-order path's rules (upsert-order.ts), never a second copy of them:
 *
 * - every order number of the batch is locked first (the per-order advisory lock, in one sorted statement);
 * - the easy case — a NEW order of the tenant's currency, without refunds, whose payment references are new
 *   (to the tenant, to the batch, and for Stripe to the shared provider account) and whose customer no hard
 *   case of the batch names — is written set-based (insertSetBased): its customer COPYed into the staging table
 *   "OrderBatchStage" and upserted from it in one INSERT … SELECT, the order and its payments COPYed in. Such an
 *   order has no proposal, refund or stored reference a rule could bite on, so what the per-order path would do
 *   reduces to exactly these writes;
 * - every other order (an existing one — so every order with an open proposal —, one with refunds made
 *   elsewhere, a number twice in the batch, a reference already stored, a foreign currency…) goes through the
 *   per-order upsert itself (`upsertOrderIn`), in batch order, each in a savepoint: a refused order rolls back
 *   alone, with the per-order path's own refusal, and writes that path's audit event (invalidations included);
 * - one audit event `orders:batch` for the whole batch: counts, the order numbers, and what the caller adds.
 */
export async function upsertOrderBatch(
  writer: OrderWriter,
  entries: BatchEntry[],
  traceId: string,
  opts: BatchOptions,
): Promise<BatchReport> {
  try {
    return await inOneTransaction(writer, entries, traceId, opts, true);
  } catch (error) {
    // A payment reference claimed by a concurrent push after our check: the set-based INSERT cannot refuse one
    // order, so the batch runs again with every order through the per-order path, which refuses that one alone.
    if (!isUniqueViolation(error)) throw error;
    return inOneTransaction(writer, entries, traceId, opts, false);
  }
}

async function inOneTransaction(
  writer: OrderWriter,
  entries: BatchEntry[],
  traceId: string,
  opts: BatchOptions,
  setBased: boolean,
): Promise<BatchReport> {
  const now = opts.now ?? new Date();
  return onPgTransaction(
    async (open) => {
      const c = open.connection;
      const { tenantId } = writer;
      const keys = [...new Set(entries.map((e) => `order:${tenantId}:${e.number}`))].sort();
      // Function Scan keeps the array's order: every batch takes its locks in one (sorted) order.
      await c.query("SELECT pg_advisory_xact_lock(hashtextextended(k, 0)) FROM unnest($1::text[]) AS k", [keys]);
      const account = await providerAccountOf(open.sql, tenantId);
      const fast = setBased ? await easyOnes(c, tenantId, account, entries) : new Set<number>();
      const results: BatchResult[] = new Array<BatchResult>(entries.length);
      if (fast.size > 0) {
        await insertSetBased(
          c,
          tenantId,
          account,
          [...fast].map((i) => ({ i, ...entries[i]! })),
        );
        for (const i of fast) results[i] = { number: entries[i]!.number, outcome: "created", invalidated: [] };
      }
      for (let i = 0; i < entries.length; i++) {
        if (fast.has(i)) continue;
        const { number, body } = entries[i]!;
        try {
          const r = await ormOn(open, (tx) => upsertOrderIn(tx, writer, number, body, traceId, now));
          const outcome = r.created ? "created" : r.changed ? "updated" : "unchanged";
          results[i] = { number, outcome, invalidated: r.invalidated };
        } catch (error) {
          const refusal = asRefusal(error);
          if (!isAppError(refusal)) throw refusal;
          const problems = (refusal.details?.problems ?? []) as InputProblem[];
          results[i] = { number, outcome: "refused", code: refusal.code, message: refusal.message, problems };
        }
      }
      const count = (o: BatchResult["outcome"]) => results.filter((r) => r.outcome === o).length;
      await recordAuditEvent(open.sql, {
        tenantId,
        traceId,
        actor: { type: "system", id: writer.actorId, authMethod: writer.authMethod },
        action: "orders:batch",
        outcome: "ok",
        data: {
          ...opts.audit,
          source: writer.source,
          orders: entries.length,
          created: count("created"),
          updated: count("updated"),
          unchanged: count("unchanged"),
          refused: count("refused"),
          setBased: fast.size,
          perOrder: entries.length - fast.size,
          // One string, space-separated (the audit keeps at most 50 entries of a list): an auditor finds an order's
          // batch with `data->>'numbers'` (docs/systems-of-record.md).
          numbers: ` ${entries.map((e) => e.number).join(" ")} `,
        },
        redaction: { clear: [...Object.keys(opts.audit), ...BATCH_CLEAR], maxTextLength: 80 * entries.length + 2 },
      });
      return { results, setBased: fast.size, perOrder: entries.length - fast.size };
    },
    { maxWait: 5_000, timeout: opts.timeoutMs },
  );
}

/**
 * A SHA-256 as the audit keeps it in clear: `sha256:` and eight groups of eight hex digits. The audit's redaction
 * (lib/domain/redaction.ts) masks any 32-character run as a secret; groups of eight match none of its patterns.
 */
export const auditDigest = (hex: string) => `sha256:${hex.match(/.{8}/g)!.join(":")}`;

const BATCH_CLEAR = [
  "source",
  "orders",
  "created",
  "updated",
  "unchanged",
  "refused",
  "setBased",
  "perOrder",
  "numbers",
];

/** The entries (by index) the set-based path may write: new orders with nothing a per-order rule could bite on. */
async function easyOnes(
  c: pg.ClientBase,
  tenantId: string,
  providerAccount: string,
  entries: BatchEntry[],
): Promise<Set<number>> {
  const tally = <T>(values: T[]) => values.reduce((m, v) => m.set(v, (m.get(v) ?? 0) + 1), new Map<T, number>());
  const numbers = tally(entries.map((e) => e.number));
  const refs = tally(entries.flatMap((e) => [...new Set(e.body.payments.map((p) => p.reference))]));
  const stripeRefs = entries
    .flatMap((e) => e.body.payments.filter((p) => p.provider === "stripe"))
    .map((p) => p.reference);
  const { rows: tenantRows } = await c.query<{ currency: string }>(`SELECT currency FROM "Tenant" WHERE id = $1`, [
    tenantId,
  ]);
  const currency = tenantRows[0]?.currency;
  const { rows: existing } = await c.query<{ number: string }>(
    `SELECT number FROM "Order" WHERE "tenantId" = $1 AND number = ANY($2::text[])`,
    [tenantId, [...numbers.keys()]],
  );
  const { rows: taken } = await c.query<{ ref: string }>(
    `SELECT "providerPaymentRef" AS ref FROM "Payment" WHERE "tenantId" = $1 AND "providerPaymentRef" = ANY($2::text[])
     UNION
     SELECT "providerPaymentRef" FROM "Payment"
      WHERE "providerAccount" = $3 AND provider = 'stripe' AND "tenantId" <> $1 AND "providerPaymentRef" = ANY($4::text[])`,
    [tenantId, [...refs.keys()], providerAccount, stripeRefs],
  );
  const stored = new Set(existing.map((r) => r.number));
  const takenRefs = new Set(taken.map((r) => r.ref));
  const easy = new Set<number>();
  entries.forEach((e, i) => {
    const own = e.body.payments.map((p) => p.reference);
    if (
      !stored.has(e.number) &&
      numbers.get(e.number) === 1 &&
      e.body.currency === currency &&
      e.body.refunds.length === 0 &&
      new Set(own).size === own.length &&
      own.every((r) => refs.get(r) === 1 && !takenRefs.has(r))
    )
      easy.add(i);
  });
  // A customer a hard case also names: the per-order path writes it, in batch order (the last line's name wins).
  const hardCustomers = new Set(entries.filter((_, i) => !easy.has(i)).map((e) => e.body.customer.id));
  for (const i of [...easy]) if (hardCustomers.has(entries[i]!.body.customer.id)) easy.delete(i);
  return easy;
}

/** COPY's text format: tab-separated, `\N` for null, backslash escapes. */
function copyCell(v: string | number | null): string {
  if (v === null) return "\\N";
  if (typeof v === "number") return String(v);
  if (!/[\\\n\r\t]/.test(v)) return v; // most cells: nothing to escape
  return v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/\r/g, "\\r").replace(/\t/g, "\\t");
}

/** Rows through COPY … FROM STDIN on the transaction's connection. */
async function copyRows(c: pg.ClientBase, into: string, rows: (string | number | null)[][]): Promise<void> {
  if (rows.length === 0) return;
  const text = rows.map((r) => r.map(copyCell).join("\t")).join("\n") + "\n";
  await pipeline(Readable.from([text]), c.query(copyFrom(`COPY ${into} FROM STDIN`)));
}

/**
 * The easy orders, set-based. Customers are upserted (a customer may exist, or be named by several lines):
 * COPY into the staging table, then one INSERT … SELECT … ON CONFLICT, the last line naming a customer winning as
 * it would one order after another. Orders and payments are new by construction (their numbers locked and
 * checked absent, their references checked free), so they are COPYed straight into "Order" and "Payment" with
 * ids made here; a reference claimed meanwhile by a concurrent push fails the COPY on its unique index, and
 * upsertOrderBatch replays the batch per order.
 */
async function insertSetBased(
  c: pg.ClientBase,
  tenantId: string,
  providerAccount: string,
  rows: (BatchEntry & { i: number })[],
): Promise<void> {
  const batchId = randomUUID();
  await copyRows(
    c,
    `"OrderBatchStage" ("batchId", line, "customerId", "customerName", "customerEmail")`,
    rows.map(({ i, body }) => [batchId, i, body.customer.id, body.customer.name, body.customer.email]),
  );
  await c.query(
    `INSERT INTO "Customer" (id, "tenantId", name, email)
     SELECT DISTINCT ON ("customerId") "customerId", $1::uuid, "customerName", "customerEmail"
       FROM "OrderBatchStage" WHERE "batchId" = $2 ORDER BY "customerId", line DESC
     ON CONFLICT ("tenantId", id) DO UPDATE SET name = EXCLUDED.name, email = EXCLUDED.email
      WHERE ("Customer".name, "Customer".email) IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.email)`,
    [tenantId, batchId],
  );
  // Gone before the commit: no other transaction ever sees a staged row.
  await c.query(`DELETE FROM "OrderBatchStage" WHERE "batchId" = $1`, [batchId]);

  // UTC without a zone: the columns are timestamp(3), as Prisma writes them.
  const utc = (d: Date) => d.toISOString().replace("Z", "");
  const now = utc(new Date());
  const orders: (string | number | null)[][] = [];
  const payments: (string | number | null)[][] = [];
  for (const { number, body } of rows) {
    const orderId = randomUUID();
    const { capturedMinor, items } = storedAmounts(body);
    const address = body.shipping_address ? shippingAddressOf(body.shipping_address) : null;
    orders.push([
      orderId,
      tenantId,
      number,
      body.customer.id,
      body.currency,
      body.total_minor,
      capturedMinor,
      // What refreshOrderStatus gives an order without refunds.
      body.status === "canceled" ? "cancelled" : "paid",
      JSON.stringify(items),
      utc(new Date(body.placed_at)),
      body.fulfilment ?? "unfulfilled",
      address === null ? null : JSON.stringify(address),
      now,
    ]);
    for (const p of body.payments)
      payments.push([
        randomUUID(),
        tenantId,
        orderId,
        p.method,
        p.reference,
        p.holder,
        p.display,
        p.captured_minor,
        body.currency,
        p.provider,
        providerAccount,
      ]);
  }
  await copyRows(
    c,
    `"Order" (id, "tenantId", number, "customerId", currency, "totalMinor", "capturedMinor", status, items, "placedAt",
      fulfilment, "shippingAddress", "updatedAt")`,
    orders,
  );
  await copyRows(
    c,
    `"Payment" (id, "tenantId", "orderId", method, "providerPaymentRef", "holderName", display, "amountMinor",
      currency, provider, "providerAccount")`,
    payments,
  );
}
