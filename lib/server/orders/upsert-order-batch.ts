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
import type { Tx } from "@/lib/server/db/client";
import type { Sql } from "@/lib/server/db/sql";
import { ormOn } from "@/lib/server/db/transaction";
import { isUniqueViolation } from "@/lib/server/db/unique-violation";
import { providerAccountOf } from "@/lib/server/payments/provider-account";
import { proposalStatus } from "@/lib/domain/proposal-state";
import {
  asRefusal,
  bodyProblems,
  phoneOf,
  shippingAddressOf,
  snapshotsOf,
  storedAmounts,
  upsertOrderIn,
  type OrderWriter,
} from "@/lib/server/orders/upsert-order";
import { invalidateUnfitProposals, refreshOrderStatus } from "@/lib/server/proposals/invalidate-unfit-proposals";
import { lockOrder } from "@/lib/server/proposals/locks";

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
  /** Milliseconds per phase, added to (bench:import --phases): locks, checks, creates, updates, perOrder, audit. */
  phases?: Record<string, number>;
};

/** setBased: orders written set-based (created or updated), of which `setBasedUpdates` existing ones. */
export type BatchReport = { results: BatchResult[]; setBased: number; setBasedUpdates: number; perOrder: number };

/**
 * The Orders API's upsert for many orders in ONE transaction (`POST /api/v1/orders/batch`, each batch of
 * `orders:import`), with the per-order path's rules (upsert-order.ts), never a second copy of them:
 *
 * - every order number of the batch is locked first (the per-order advisory lock, in one sorted statement);
 * - an order the per-order path could only accept, and for which it would write exactly what set-based
 *   statements write (easyOnes says which), is written set-based: a NEW order of the tenant's currency without
 *   refunds, whose references are new, COPYed into "Order" and "Payment"; an EXISTING order whose line has no
 *   problem (bodyProblems), whose references are new or its own and whose customer no other line of the batch
 *   names, updated by UPDATE … FROM the staged rows, its payments and refunds made elsewhere upserted by
 *   reference — then the per-order path's own functions for what they decide (refreshOrderStatus for orders with
 *   refunds, snapshotsOf for updated/unchanged, invalidateUnfitProposals for a changed order with a pending
 *   proposal). Their customers: the new ones COPYed, the known ones updated, the last line winning;
 * - every other order (a number twice in the batch, a reference of another order, a foreign currency, a refund
 *   above its payment, a customer shared with another line of the batch…) goes through the per-order upsert
 *   itself (`upsertOrderIn`), in batch order, each in a savepoint: a refused order rolls back alone, with the
 *   per-order path's own refusal, and writes that path's audit event (invalidations included);
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
    if (!raced(error)) throw error;
    return inOneTransaction(writer, entries, traceId, opts, false);
  }
}

/**
 * A reference the plan saw free (or this order's) that a concurrent push took before the set-based write: the
 * COPY or INSERT fails on the unique index (pg's 23505, Prisma's P2002 through the per-order path), or an upsert
 * finds the row under another order and leaves it alone (SetBasedRace).
 */
class SetBasedRace extends Error {}
const raced = (error: unknown) =>
  isUniqueViolation(error) ||
  error instanceof SetBasedRace ||
  (error instanceof Error && (error as { code?: unknown }).code === "23505");

async function inOneTransaction(
  writer: OrderWriter,
  entries: BatchEntry[],
  traceId: string,
  opts: BatchOptions,
  setBased: boolean,
): Promise<BatchReport> {
  const now = opts.now ?? new Date();
  const phases = opts.phases;
  let mark = performance.now();
  const lap = (phase: string) => {
    const t = performance.now();
    if (phases) phases[phase] = (phases[phase] ?? 0) + (t - mark);
    mark = t;
  };
  return onPgTransaction(
    async (open) => {
      const c = open.connection;
      const { tenantId } = writer;
      mark = performance.now();
      const keys = [...new Set(entries.map((e) => `order:${tenantId}:${e.number}`))].sort();
      // Function Scan keeps the array's order: every batch takes its locks in one (sorted) order.
      await c.query("SELECT pg_advisory_xact_lock(hashtextextended(k, 0)) FROM unnest($1::text[]) AS k", [keys]);
      lap("locks");
      const account = await providerAccountOf(open.sql, tenantId);
      const plan = setBased ? await easyOnes(c, open.sql, tenantId, account, entries) : EMPTY_PLAN;
      lap("checks");
      const results: BatchResult[] = new Array<BatchResult>(entries.length);
      const fast = new Set([...plan.creates, ...plan.updates.keys()]);
      const before =
        plan.updates.size > 0 ? await ormOn(open, (tx) => snapshotsOf(tx, [...plan.updates.values()])) : null;
      if (fast.size > 0)
        await upsertCustomers(
          c,
          tenantId,
          [...fast].sort((x, y) => x - y).map((i) => entries[i]!),
          plan.knownCustomers,
        );
      if (plan.creates.size > 0) {
        await insertSetBased(
          c,
          tenantId,
          account,
          [...plan.creates].map((i) => ({ i, ...entries[i]! })),
        );
        for (const i of plan.creates) results[i] = { number: entries[i]!.number, outcome: "created", invalidated: [] };
      }
      lap("creates");
      if (before) {
        const updates = [...plan.updates].map(([i, id]) => ({ i, id, ...entries[i]! }));
        await updateSetBased(c, tenantId, account, updates, plan);
        const outcomes = await ormOn(open, (tx) => afterUpdates(tx, writer, updates, plan, before, traceId, now));
        for (const u of updates) results[u.i] = { number: u.number, ...outcomes.get(u.id)! };
      }
      lap("updates");
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
      lap("perOrder");
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
      lap("audit");
      return {
        results,
        setBased: fast.size,
        setBasedUpdates: plan.updates.size,
        perOrder: entries.length - fast.size,
      };
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

/**
 * What the set-based path may write, by entry index: `creates` (new orders) and `updates` (existing orders, with
 * their id), each with nothing only the per-order path can decide; plus what the updates' writes need.
 */
type Plan = {
  creates: Set<number>;
  updates: Map<number, string>;
  /** The stored payments of the updated orders: the ones a line no longer lists are deleted. */
  storedPayments: { id: string; orderId: string; ref: string }[];
  /** Updated orders that hold a refund (before this batch or by it): their status is refreshOrderStatus's. */
  withRefunds: Set<string>;
  /** Refund references of the updated orders that are this product's own refunds (origin local). */
  localRefunds: Set<string>;
  /** The batch's customer ids the tenant already has. */
  knownCustomers: Set<string>;
};
const EMPTY_PLAN: Plan = {
  creates: new Set(),
  updates: new Map(),
  storedPayments: [],
  withRefunds: new Set(),
  localRefunds: new Set(),
  knownCustomers: new Set(),
};

/**
 * Sorts the batch's entries. An entry is written set-based when the per-order path could only accept it and
 * write exactly what the set-based statements write:
 * - its number once in the batch, its body without problems (`bodyProblems`, the per-order path's own check);
 * - its payment references once in the batch, not another tenant's at the shared Stripe account, and either
 *   new to the tenant or (an update) already this order's; its refund references likewise;
 * - a new order: no refunds (a refund made elsewhere on a new order goes the per-order way);
 * - an existing order (its row locked here, as the per-order path locks it): a customer no other entry of the
 *   batch names (its snapshot, which says "updated" or "unchanged", must be its own line's doing), and no stored
 *   payment the line drops that holds a refund or a proposal (the per-order path refuses that).
 * A new order's customer that a per-order entry also names goes the per-order way too (the last line wins).
 */
async function easyOnes(
  c: pg.ClientBase,
  tx: Sql,
  tenantId: string,
  providerAccount: string,
  entries: BatchEntry[],
): Promise<Plan> {
  const tally = <T>(values: T[]) => values.reduce((m, v) => m.set(v, (m.get(v) ?? 0) + 1), new Map<T, number>());
  const numbers = tally(entries.map((e) => e.number));
  const customers = tally(entries.map((e) => e.body.customer.id));
  const refs = tally(entries.flatMap((e) => [...new Set(e.body.payments.map((p) => p.reference))]));
  const refundRefs = tally(entries.flatMap((e) => [...new Set(e.body.refunds.map((r) => r.reference))]));
  const stripeRefs = entries
    .flatMap((e) => e.body.payments.filter((p) => p.provider === "stripe"))
    .map((p) => p.reference);
  const { rows: tenantRows } = await c.query<{ currency: string }>(`SELECT currency FROM "Tenant" WHERE id = $1`, [
    tenantId,
  ]);
  const currency = tenantRows[0]?.currency ?? "";
  const { rows: existing } = await c.query<{ id: string; number: string }>(
    `SELECT id, number FROM "Order" WHERE "tenantId" = $1 AND number = ANY($2::text[]) ORDER BY id`,
    [tenantId, [...numbers.keys()]],
  );
  // Each existing order's row locked, in one (id) order, before anything of its proposals — through locks.ts, the
  // one place row locks are taken (docs/architecture.md "Locks"): one statement per existing order.
  for (const o of existing) await lockOrder(tx, tenantId, o.id);
  const { rows: taken } = await c.query<{ ref: string; orderId: string | null }>(
    `SELECT "providerPaymentRef" AS ref, "orderId"::text AS "orderId" FROM "Payment"
      WHERE "tenantId" = $1 AND "providerPaymentRef" = ANY($2::text[])`,
    [tenantId, [...refs.keys()]],
  );
  // Another tenant's payment intent at the shared provider account (orderId null: not this tenant's). Only asked
  // when the batch names Stripe payments: with an empty list the planner may still scan every payment.
  if (stripeRefs.length > 0) {
    const { rows: foreign } = await c.query<{ ref: string }>(
      `SELECT "providerPaymentRef" AS ref FROM "Payment"
        WHERE "providerAccount" = $1 AND provider = 'stripe' AND "tenantId" <> $2 AND "providerPaymentRef" = ANY($3::text[])`,
      [providerAccount, tenantId, stripeRefs],
    );
    for (const f of foreign) taken.push({ ref: f.ref, orderId: null });
  }
  const { rows: takenRefunds } =
    refundRefs.size === 0
      ? { rows: [] }
      : await c.query<{ ref: string; orderId: string; origin: string }>(
          `SELECT "providerRefundId" AS ref, "orderId"::text AS "orderId", origin FROM "Refund"
            WHERE "tenantId" = $1 AND "providerRefundId" = ANY($2::text[])`,
          [tenantId, [...refundRefs.keys()]],
        );
  const ids = existing.map((o) => o.id);
  const { rows: storedPayments } =
    ids.length === 0
      ? { rows: [] }
      : await c.query<{ id: string; orderId: string; ref: string; held: boolean }>(
          `SELECT p.id::text, p."orderId"::text AS "orderId", p."providerPaymentRef" AS ref,
                  (EXISTS (SELECT 1 FROM "Refund" r WHERE r."paymentId" = p.id)
                   OR EXISTS (SELECT 1 FROM "Proposal" x WHERE x."paymentId" = p.id)) AS held
             FROM "Payment" p WHERE p."orderId" = ANY($1::uuid[])`,
          [ids],
        );
  const { rows: refunded } =
    ids.length === 0
      ? { rows: [] }
      : await c.query<{ orderId: string }>(
          `SELECT DISTINCT "orderId"::text AS "orderId" FROM "Refund" WHERE "orderId" = ANY($1::uuid[])`,
          [ids],
        );
  const { rows: known } = await c.query<{ id: string }>(
    `SELECT id FROM "Customer" WHERE "tenantId" = $1 AND id = ANY($2::text[])`,
    [tenantId, [...customers.keys()]],
  );
  const stored = new Map(existing.map((r) => [r.number, r.id]));
  const paymentOwner = new Map(taken.map((r) => [r.ref, r.orderId]));
  const refundOwner = new Map(takenRefunds.map((r) => [r.ref, r.orderId]));
  const plan: Plan = {
    ...EMPTY_PLAN,
    creates: new Set(),
    updates: new Map(),
    knownCustomers: new Set(known.map((k) => k.id)),
  };
  entries.forEach((e, i) => {
    const own = e.body.payments.map((p) => p.reference);
    const ownRefunds = e.body.refunds.map((r) => r.reference);
    const id = stored.get(e.number) ?? null;
    const ours = (owner: Map<string, string | null>, ref: string) => !owner.has(ref) || (id && owner.get(ref) === id);
    if (
      numbers.get(e.number) !== 1 ||
      bodyProblems(e.body, currency).length > 0 ||
      !own.every((r) => refs.get(r) === 1 && ours(paymentOwner, r)) ||
      !ownRefunds.every((r) => refundRefs.get(r) === 1 && ours(refundOwner, r))
    )
      return;
    if (id === null) {
      if (ownRefunds.length === 0) plan.creates.add(i);
      return;
    }
    const drops = storedPayments.filter((p) => p.orderId === id && !own.includes(p.ref));
    // A dropped payment named by another line: which line comes first decides, so the per-order path does.
    if (customers.get(e.body.customer.id) === 1 && !drops.some((p) => p.held || refs.has(p.ref)))
      plan.updates.set(i, id);
  });
  // A customer a hard case also names: the per-order path writes it, in batch order (the last line's name wins).
  const hardCustomers = new Set(
    entries.filter((_, i) => !plan.creates.has(i) && !plan.updates.has(i)).map((e) => e.body.customer.id),
  );
  for (const i of [...plan.creates]) if (hardCustomers.has(entries[i]!.body.customer.id)) plan.creates.delete(i);
  const updated = new Set(plan.updates.values());
  plan.storedPayments = storedPayments.filter((p) => updated.has(p.orderId));
  plan.localRefunds = new Set(
    takenRefunds.filter((r) => r.origin === "local" && updated.has(r.orderId)).map((r) => r.ref),
  );
  plan.withRefunds = new Set(refunded.map((r) => r.orderId).filter((id) => updated.has(id)));
  plan.updates.forEach((id, i) => {
    if (entries[i]!.body.refunds.length > 0) plan.withRefunds.add(id);
  });
  return plan;
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
 * The customers of the set-based entries (new and existing orders alike), the last line naming a customer winning
 * as it would one order after another: the tenant's new ones COPYed straight into "Customer", the known ones whose
 * name, email or phone changed updated from the staged rows (UPDATE … FROM unnest). Two batches of one import never
 * share a customer in flight (import-orders.ts); a deadlock with another writer is replayed by the transaction
 * (onPgTransaction). A customer created meanwhile by a concurrent push fails the COPY on its primary key, and
 * upsertOrderBatch replays the batch per order.
 */
async function upsertCustomers(c: pg.ClientBase, tenantId: string, rows: BatchEntry[], known: Set<string>) {
  const last = new Map<string, BatchEntry["body"]["customer"]>();
  for (const { body } of rows) last.set(body.customer.id, body.customer);
  const fresh = [...last.values()].filter((x) => !known.has(x.id));
  const seen = [...last.values()].filter((x) => known.has(x.id)).sort((x, y) => (x.id < y.id ? -1 : 1));
  await copyRows(
    c,
    `"Customer" (id, "tenantId", name, email, phone)`,
    fresh.map((x) => [x.id, tenantId, x.name, x.email, phoneOf(x.phone) ?? null]),
  );
  // A line without `phone` keeps the one on record (keep = true); null clears it.
  if (seen.length > 0)
    await c.query(
      `UPDATE "Customer" k SET name = s.name, email = s.email, phone = CASE WHEN s.keep THEN k.phone ELSE s.phone END
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::boolean[]) AS s(id, name, email, phone, keep)
        WHERE k."tenantId" = $1 AND k.id = s.id
          AND (k.name, k.email, k.phone) IS DISTINCT FROM (s.name, s.email, CASE WHEN s.keep THEN k.phone ELSE s.phone END)`,
      [
        tenantId,
        seen.map((x) => x.id),
        seen.map((x) => x.name),
        seen.map((x) => x.email),
        seen.map((x) => phoneOf(x.phone) ?? null),
        seen.map((x) => x.phone === undefined),
      ],
    );
}

/** UTC without a zone: the columns are timestamp(3), as Prisma writes them. */
const utc = (d: Date) => d.toISOString().replace("Z", "");

/**
 * The new orders, set-based (their customers are upserted before). Orders and payments are new by construction
 * (their numbers locked and checked absent, their references checked free), so they are COPYed straight into
 * "Order" and "Payment" with ids made here; a reference claimed meanwhile by a concurrent push fails the COPY on
 * its unique index, and upsertOrderBatch replays the batch per order.
 */
async function insertSetBased(
  c: pg.ClientBase,
  tenantId: string,
  providerAccount: string,
  rows: (BatchEntry & { i: number })[],
): Promise<void> {
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

type Update = BatchEntry & { i: number; id: string };

/**
 * The existing orders, set-based, with what the per-order path writes for them: the order row (UPDATE … FROM the
 * staged rows; fulfilment and address kept when the line omits them; the status of an order without refunds), its
 * payments upserted by reference and the ones it no longer lists deleted (none holds a refund or a proposal: the
 * plan sent those the per-order way), its refunds made elsewhere upserted into the ledger with origin
 * `external` (never one of ours: origin `local` is left as it is). The staged rows are arrays bound to one
 * statement each (unnest), not a table: nothing to clean up.
 */
async function updateSetBased(
  c: pg.ClientBase,
  tenantId: string,
  providerAccount: string,
  rows: Update[],
  plan: Plan,
): Promise<void> {
  const col = <T>(f: (u: Update) => T) => rows.map(f);
  const amounts = rows.map((u) => storedAmounts(u.body));
  const addressOf = (u: Update) => {
    if (!u.body.shipping_address) return null;
    return JSON.stringify(shippingAddressOf(u.body.shipping_address));
  };
  await c.query(
    `UPDATE "Order" o SET "customerId" = s."customerId", currency = s.currency, "totalMinor" = s.total,
            "capturedMinor" = s.captured, items = s.items, "placedAt" = s."placedAt",
            fulfilment = COALESCE(s.fulfilment::"Fulfilment", o.fulfilment),
            "shippingAddress" = CASE WHEN s."addressGiven" THEN s.address ELSE o."shippingAddress" END,
            status = (CASE WHEN s.cancelled THEN 'cancelled' ELSE 'paid' END)::"OrderStatus", "updatedAt" = $1
       FROM unnest($2::uuid[], $3::text[], $4::text[], $5::int[], $6::int[], $7::jsonb[], $8::timestamp[], $9::text[],
                   $10::boolean[], $11::jsonb[], $12::boolean[])
         AS s(id, "customerId", currency, total, captured, items, "placedAt", fulfilment, "addressGiven", address, cancelled)
      WHERE o.id = s.id AND o."tenantId" = $13`,
    [
      utc(new Date()),
      col((u) => u.id),
      col((u) => u.body.customer.id),
      col((u) => u.body.currency),
      col((u) => u.body.total_minor),
      amounts.map((a) => a.capturedMinor),
      amounts.map((a) => JSON.stringify(a.items)),
      col((u) => utc(new Date(u.body.placed_at))),
      col((u) => u.body.fulfilment ?? null),
      col((u) => u.body.shipping_address !== undefined),
      col(addressOf),
      col((u) => u.body.status === "canceled"),
      tenantId,
    ],
  );
  const payments = rows.flatMap((u) => u.body.payments.map((p) => ({ u, p })));
  const { rows: paymentIds } = await c.query<{ id: string; ref: string }>(
    `INSERT INTO "Payment" (id, "tenantId", "orderId", method, "providerPaymentRef", "holderName", display,
            "amountMinor", currency, provider, "providerAccount")
     SELECT gen_random_uuid(), $1, s."orderId", s.method::"PaymentMethod", s.ref, s.holder, s.display, s.amount,
            s.currency, s.provider::"PaymentSource", $2
       FROM unnest($3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[], $9::text[], $10::text[])
         AS s("orderId", method, ref, holder, display, amount, currency, provider)
     ON CONFLICT ("tenantId", "providerPaymentRef") DO UPDATE SET method = EXCLUDED.method,
            "holderName" = EXCLUDED."holderName", display = EXCLUDED.display, "amountMinor" = EXCLUDED."amountMinor",
            currency = EXCLUDED.currency, provider = EXCLUDED.provider, "providerAccount" = EXCLUDED."providerAccount"
      WHERE "Payment"."orderId" = EXCLUDED."orderId"
     RETURNING id::text, "providerPaymentRef" AS ref`,
    [
      tenantId,
      providerAccount,
      payments.map(({ u }) => u.id),
      payments.map(({ p }) => p.method),
      payments.map(({ p }) => p.reference),
      payments.map(({ p }) => p.holder),
      payments.map(({ p }) => p.display),
      payments.map(({ p }) => p.captured_minor),
      payments.map(({ u }) => u.body.currency),
      payments.map(({ p }) => p.provider),
    ],
  );
  if (paymentIds.length !== payments.length) throw new SetBasedRace("a payment reference moved to another order");
  const listed = new Set(payments.map(({ p }) => p.reference));
  const dropped = plan.storedPayments.filter((p) => !listed.has(p.ref)).map((p) => p.id);
  if (dropped.length > 0) await c.query(`DELETE FROM "Payment" WHERE id = ANY($1::uuid[])`, [dropped]);

  const paymentId = new Map(paymentIds.map((r) => [r.ref, r.id]));
  const refunds = rows.flatMap((u) =>
    u.body.refunds.map((r) => ({
      u,
      r,
      paymentId: paymentId.get(r.payment_reference ?? u.body.payments[0]!.reference)!,
    })),
  );
  // A refund that says when it was made moves its createdAt; one that does not keeps it (the per-order upsert).
  for (const dated of [true, false]) {
    const part = refunds.filter(({ r }) => Boolean(r.created_at) === dated);
    if (part.length === 0) continue;
    const { rowCount } = await c.query(
      `INSERT INTO "Refund" (id, "tenantId", "orderId", "paymentId", "providerRefundId", origin, reason, "amountMinor",
              currency, status, "createdAt")
       SELECT gen_random_uuid(), $1, s."orderId", s."paymentId", s.ref, 'external', 'made outside this product',
              s.amount, s.currency, s.status::"RefundStatus", s."createdAt"
         FROM unnest($2::uuid[], $3::uuid[], $4::text[], $5::int[], $6::text[], $7::text[], $8::timestamp[])
           AS s("orderId", "paymentId", ref, amount, currency, status, "createdAt")
       ON CONFLICT ("tenantId", "providerRefundId") DO UPDATE SET "paymentId" = EXCLUDED."paymentId",
              "amountMinor" = EXCLUDED."amountMinor", currency = EXCLUDED.currency, status = EXCLUDED.status,
              "createdAt" = CASE WHEN $9 THEN EXCLUDED."createdAt" ELSE "Refund"."createdAt" END
        WHERE "Refund".origin = 'external' AND "Refund"."orderId" = EXCLUDED."orderId"
       RETURNING 1`,
      [
        tenantId,
        part.map(({ u }) => u.id),
        part.map((x) => x.paymentId),
        part.map(({ r }) => r.reference),
        part.map(({ r }) => r.amount_minor),
        part.map(({ u }) => u.body.currency),
        part.map(({ r }) => r.status),
        part.map(({ r }) => utc(r.created_at ? new Date(r.created_at) : new Date())),
        dated,
      ],
    );
    // Ours (origin local) are left alone on purpose; any other row not written was taken meanwhile.
    if (rowCount !== part.filter(({ r }) => !plan.localRefunds.has(r.reference)).length)
      throw new SetBasedRace("a refund reference moved to another order");
  }
}

/**
 * After the set-based updates, the per-order path's own rules on the same transaction: the status of an order
 * with refunds (refreshOrderStatus), then, for each order whose snapshot changed, its open proposals checked and
 * the ones it no longer allows invalidated and audited (invalidateUnfitProposals) — the functions themselves,
 * called only for the orders they can concern.
 */
async function afterUpdates(
  tx: Tx,
  writer: OrderWriter,
  rows: Update[],
  plan: Plan,
  before: Map<string, string>,
  traceId: string,
  now: Date,
): Promise<Map<string, { outcome: "updated" | "unchanged"; invalidated: string[] }>> {
  for (const u of rows)
    if (plan.withRefunds.has(u.id))
      await refreshOrderStatus(tx, {
        id: u.id,
        capturedMinor: storedAmounts(u.body).capturedMinor,
        cancelled: u.body.status === "canceled",
      });
  const after = await snapshotsOf(
    tx,
    rows.map((u) => u.id),
  );
  const changed = rows.map((u) => u.id).filter((id) => before.get(id) !== after.get(id));
  const pending =
    changed.length === 0
      ? []
      : await tx.proposal.findMany({
          where: { tenantId: writer.tenantId, orderId: { in: changed }, status: proposalStatus.pendingApproval },
          select: { orderId: true },
          distinct: ["orderId"],
        });
  const withPending = new Set(pending.map((p) => p.orderId));
  const out = new Map<string, { outcome: "updated" | "unchanged"; invalidated: string[] }>();
  for (const id of changed)
    out.set(id, {
      outcome: "updated",
      invalidated: withPending.has(id) ? await invalidateUnfitProposals(tx, writer, id, traceId, now) : [],
    });
  for (const u of rows) if (!out.has(u.id)) out.set(u.id, { outcome: "unchanged", invalidated: [] });
  return out;
}
