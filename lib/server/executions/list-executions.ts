import "server-only";
import { AppError } from "@/lib/domain/outcome";
import { assertCan } from "@/lib/domain/permissions";
import { listExecutionsInput, type ExecutionState } from "@/lib/schemas/executions";
import { db } from "@/lib/server/db/client";
import { Prisma } from "@/lib/server/db/generated/client";
import type { Actor } from "@/lib/server/auth/actor";

export type ExecutionRow = {
  id: string;
  proposalId: string;
  orderNumber: string;
  amountMinor: number;
  currency: string;
  status: ExecutionState;
  attempts: number;
  reconciliations: number;
  providerRefundId: string | null;
  idempotencyKey: string;
  failureReason: string | null;
  lastError: string | null;
  createdAt: string;
  lastAttemptAt: string | null;
  settledAt: string | null;
};
export type ExecutionsPage = { rows: ExecutionRow[]; nextCursor: string | null };

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  try {
    const [iso, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as [string, string];
    const createdAt = new Date(iso);
    if (Number.isNaN(createdAt.getTime()) || !/^[0-9a-f-]{36}$/i.test(id)) throw new Error("bad cursor");
    return { createdAt, id };
  } catch {
    throw new AppError("invalid_arguments", "The page cursor is not valid; start from the first page.");
  }
}
const encodeCursor = (row: { createdAt: Date; id: string }) => Buffer.from(JSON.stringify([row.createdAt.toISOString(), row.id])).toString("base64url");

type RawRow = Omit<ExecutionRow, "createdAt" | "lastAttemptAt" | "settledAt"> & { createdAt: Date; lastAttemptAt: Date | null; settledAt: Date | null };

export const toExecutionRow = (r: RawRow): ExecutionRow => ({
  ...r,
  currency: r.currency.trim(),
  createdAt: r.createdAt.toISOString(),
  lastAttemptAt: r.lastAttemptAt?.toISOString() ?? null,
  settledAt: r.settledAt?.toISOString() ?? null,
});

export const executionColumns = Prisma.sql`e.id, e."proposalId", o.number AS "orderNumber", p."amountMinor", p.currency, e.status::text AS status,
  e.attempts, e.reconciliations, e."providerRefundId", e."idempotencyKey", e."failureReason", e."lastError",
  e."createdAt", e."lastAttemptAt", e."settledAt"`;

/**
 * The tenant's executions, newest first, keyset-paginated on (createdAt, id) (the
 * (tenantId, status, createdAt) index serves the state filter). Foreign tenants' rows are not in the `where`.
 */
export async function listExecutions(actor: Actor, raw: unknown): Promise<ExecutionsPage> {
  assertCan(actor.roles, "executions:read");
  const parsed = listExecutionsInput.safeParse(raw ?? {});
  if (!parsed.success) throw new AppError("invalid_arguments", "Invalid execution filters.", { problems: parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })) });
  const f = parsed.data;
  const conditions: Prisma.Sql[] = [Prisma.sql`e."tenantId" = ${actor.tenantId}::uuid`];
  if (f.state) conditions.push(Prisma.sql`e.status = ${f.state}::"ExecutionStatus"`);
  if (f.cursor) {
    const c = decodeCursor(f.cursor);
    conditions.push(Prisma.sql`(e."createdAt", e.id) < (${c.createdAt}, ${c.id}::uuid)`);
  }
  const rows = await db().$queryRaw<RawRow[]>`
    SELECT ${executionColumns}
      FROM "Execution" e
      JOIN "Proposal" p ON p.id = e."proposalId"
      JOIN "Order" o ON o.id = p."orderId"
     WHERE ${Prisma.join(conditions, " AND ")}
     ORDER BY e."createdAt" DESC, e.id DESC
     LIMIT ${f.limit + 1}`;
  const page = rows.slice(0, f.limit);
  const last = page[page.length - 1];
  return { rows: page.map(toExecutionRow), nextCursor: rows.length > f.limit && last ? encodeCursor(last) : null };
}
