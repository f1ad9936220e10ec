import "server-only";
import { sql, type Sql } from "@/lib/server/db/sql";
import { isUuid } from "@/lib/domain/validation";

// The one lock order (docs/architecture.md "Locks"): a transaction that locks or writes an order and its proposals
// takes the ORDER row first (SELECT … FOR UPDATE), then the proposal rows. Every such row lock of the app is taken
// here, so a path cannot lock a proposal without its order first (lib/domain/boundaries.test.ts checks that no
// other file row-locks a proposal). Taking a lock the transaction already holds is free, so a path may call these
// more than once.

/** Locks the tenant's order row for the rest of the transaction; false when the tenant has no such order. */
export async function lockOrder(tx: Sql, tenantId: string, orderId: string): Promise<boolean> {
  const { rows } = await sql`
    SELECT 1 FROM "Order" WHERE "id" = ${orderId}::uuid AND "tenantId" = ${tenantId}::uuid FOR UPDATE`.execute(tx);
  return rows.length === 1;
}

/**
 * Locks one proposal of the tenant for the rest of the transaction — its order row first when it concerns an order,
 * then the proposal row (one statement each). Null when the tenant has no such proposal: another tenant's is simply
 * not found. A proposal that concerns no order (a kind whose subject is a customer, a segment…) has only its own row.
 */
export async function lockOrderThenProposal(
  tx: Sql,
  tenantId: string,
  proposalId: string,
): Promise<{ id: string; orderId: string | null } | null> {
  if (!isUuid(proposalId)) return null;
  // A proposal's order never changes, so the order read here (unlocked) is the one to lock.
  const { rows: found } = await sql<{ orderId: string | null }>`
    SELECT p."orderId" FROM "Proposal" p WHERE p."id" = ${proposalId}::uuid AND p."tenantId" = ${tenantId}::uuid`.execute(
    tx,
  );
  if (!found[0]) return null;
  const { orderId } = found[0];
  if (orderId !== null && !(await lockOrder(tx, tenantId, orderId))) return null;
  const { rows } = await sql<{ id: string; orderId: string | null }>`
    SELECT "id", "orderId" FROM "Proposal"
     WHERE "id" = ${proposalId}::uuid AND "tenantId" = ${tenantId}::uuid
       AND "orderId" IS NOT DISTINCT FROM ${orderId}::uuid
       FOR UPDATE`.execute(tx);
  return rows[0] ?? null;
}

/**
 * Locks the order of an execution's proposal (an execution settles its proposal and may write its order's
 * status and ledger: the order comes first there too). Whatever the tenant: the execution names it.
 */
export async function lockOrderOfExecution(tx: Sql, executionId: string): Promise<void> {
  if (!isUuid(executionId)) return;
  await sql`
    SELECT 1 FROM "Order" o
     WHERE o."id" = (SELECT p."orderId" FROM "Execution" e JOIN "Proposal" p ON p."id" = e."proposalId" WHERE e."id" = ${executionId}::uuid)
       FOR UPDATE`.execute(tx);
}
