import "server-only";
import { AppError } from "@/lib/domain/outcome";
import { isUuid } from "@/lib/domain/validation";
import { type Tx } from "@/lib/server/db/client";
import { transaction } from "@/lib/server/db/transaction";

/** What a malformed id, a missing row and another tenant's row all answer alike. */
export const notFound = (what: string) => new AppError("not_found", `No such ${what}.`);

/** An id from the URL that is not a UUID names no row: not found, before anything is read. */
export function assertRowId(id: string, what: string): void {
  if (!isUuid(id)) throw notFound(what);
}

/** The `where` of one row of the tenant: its id and the tenant. */
export type TenantRowWhere = { id: string; tenantId: string };

/**
 * An admin change to one row of the admin's tenant, in one transaction: `read` gets the row with the tenant in its
 * `where` (so another tenant's row is simply not found), and `change` runs on what it read. A malformed id is
 * refused first, as not found.
 */
export async function changeTenantRow<R, T>(
  tenantId: string,
  id: string,
  what: string,
  read: (tx: Tx, where: TenantRowWhere) => Promise<R | null>,
  change: (tx: Tx, row: R) => Promise<T>,
): Promise<T> {
  assertRowId(id, what);
  return transaction(async (tx) => {
    const row = await read(tx, { id, tenantId });
    if (!row) throw notFound(what);
    return change(tx, row);
  });
}

/**
 * A guarded write (`updateMany` whose `where` holds what was read) that moved no row: someone else changed it first,
 * or it is not in the state the change needs. Refused with `reason`; nothing of the change is written.
 */
export function assertMoved(result: { count: number }, message: string, reason: string): void {
  if (result.count !== 1) throw new AppError("permission_denied", message, { reason });
}
