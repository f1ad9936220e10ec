import "server-only";
import { sql, type RawBuilder } from "@/lib/server/db/sql";
import { decodeKeysetCursor, encodeKeysetCursor } from "@/lib/domain/keyset-cursor";
import { parseInput } from "@/lib/domain/validation";
import { assertCan } from "@/lib/domain/permissions";
import { listExecutionsInput } from "@/lib/schemas/executions";
import type { ExecutionRow, ExecutionsPage } from "@/lib/schemas/execution-dto";
import type { Actor } from "@/lib/server/auth/actor";
import { sqlPool } from "@/lib/server/db/pg";
import { kindSummaryOf } from "@/lib/server/proposals/kind-review";

export type { ExecutionRow, ExecutionsPage } from "@/lib/schemas/execution-dto";

type RawRow = Omit<ExecutionRow, "createdAt" | "lastAttemptAt" | "settledAt" | "summary"> & {
  /** The proposal's hashed params (another kind's), read for its summary and never sent to the browser. */
  params: unknown;
  createdAt: Date;
  lastAttemptAt: Date | null;
  settledAt: Date | null;
};

export const toExecutionRow = ({ params, ...r }: RawRow): ExecutionRow => ({
  ...r,
  currency: r.currency?.trim() ?? null,
  summary: kindSummaryOf(r.kind, params),
  createdAt: r.createdAt.toISOString(),
  lastAttemptAt: r.lastAttemptAt?.toISOString() ?? null,
  settledAt: r.settledAt?.toISOString() ?? null,
});

/**
 * An execution's columns for the lists, every kind alike: the refund's amount and currency are null on another
 * kind's proposal, whose params give its summary. Joined with `o` as a LEFT JOIN (a proposal about no order is listed
 * too, named by its subject's reference).
 */
export const executionColumns = sql`e.id, e."proposalId", p.kind, COALESCE(o.number, p.subject->>'ref') AS "orderNumber",
  p."amountMinor", p.currency, p.params, e.status::text AS status,
  e.attempts, e.reconciliations, e."providerRefundId", e."actionReference", e."idempotencyKey", e."failureReason", e."lastError",
  e."createdAt", e."lastAttemptAt", e."settledAt"`;

/** Escapes LIKE wildcards so a search for "ORD_1" or "50%" matches those characters literally. */
const likeEscape = (q: string) => q.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The tenant's executions, newest (or oldest) first, keyset-paginated on (createdAt, id) (the
 * (tenantId, status, createdAt) index serves the state filter). `q` finds an execution by order number
 * (part of it), provider refund id, the shop's action reference, idempotency key, customer id or customer
 * e-mail (case-insensitive, whole value). Every kind is listed (a kind's summary comes from its review, through the
 * registry). Foreign tenants' rows are not in the `where`: the tenant is on the execution and on the joined
 * proposal, order and customer alike.
 */
export async function listExecutions(actor: Actor, raw: unknown): Promise<ExecutionsPage> {
  assertCan(actor.roles, "executions:read");
  const f = parseInput(listExecutionsInput, raw ?? {}, "Invalid execution filters.");
  const conditions: RawBuilder<unknown>[] = [sql`e."tenantId" = ${actor.tenantId}::uuid`];
  if (f.state) conditions.push(sql`e.status = ${f.state}::"ExecutionStatus"`);
  if (f.q) {
    const q = f.q;
    conditions.push(sql`(o.number ILIKE ${`%${likeEscape(q)}%`}
      OR lower(e."providerRefundId") = lower(${q}) OR lower(e."actionReference") = lower(${q})
      OR lower(e."idempotencyKey") = lower(${q})
      OR c.id = ${q} OR lower(c.email) = lower(${q}))`);
  }
  const newest = f.sort === "newest";
  if (f.cursor) {
    const c = decodeKeysetCursor(f.cursor);
    conditions.push(
      newest
        ? sql`(e."createdAt", e.id) < (${c.at}, ${c.id}::uuid)`
        : sql`(e."createdAt", e.id) > (${c.at}, ${c.id}::uuid)`,
    );
  }
  const { rows } = await sql<RawRow>`
    SELECT ${executionColumns}
      FROM "Execution" e
      JOIN "Proposal" p ON p.id = e."proposalId" AND p."tenantId" = e."tenantId"
      LEFT JOIN "Order" o ON o.id = p."orderId" AND o."tenantId" = e."tenantId"
      LEFT JOIN "Customer" c ON c.id = o."customerId" AND c."tenantId" = e."tenantId"
     WHERE ${sql.join(conditions, sql` AND `)}
     ORDER BY ${newest ? sql`e."createdAt" DESC, e.id DESC` : sql`e."createdAt" ASC, e.id ASC`}
     LIMIT ${f.limit + 1}`.execute(sqlPool());
  const page = rows.slice(0, f.limit);
  const last = page[page.length - 1];
  return {
    rows: page.map(toExecutionRow),
    nextCursor: rows.length > f.limit && last ? encodeKeysetCursor({ at: last.createdAt, id: last.id }) : null,
  };
}
