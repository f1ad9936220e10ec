import "server-only";
import { confirmationFor, type Confirmation } from "@/lib/domain/confirmation-policy";
import { sql, type Sql } from "@/lib/server/db/sql";

/**
 * Who must confirm a new proposal of `kind` (docs/action-kinds.md, "Who confirms"), read in the prepare's transaction:
 * the kind's floor from the registry, raised by its params and by the tenant's `customerConfirmationKinds`. Knows no
 * kind. The answer is stored and hashed with the proposal (v6 / v7).
 */
export async function decideConfirmation(
  tx: Sql,
  tenantId: string,
  kind: string,
  params: unknown,
): Promise<Confirmation> {
  // Imported when needed: the registry's kinds import the proposal writers that call this.
  const { kindBehaviourOf } = await import("@/lib/actions/registry.server");
  const { rows } = await sql<{ customerConfirmationKinds: string[] }>`
    SELECT "customerConfirmationKinds" FROM "Tenant" WHERE "id" = ${tenantId}::uuid`.execute(tx);
  if (!rows[0]) throw new Error("tenant not found");
  return confirmationFor(kindBehaviourOf(kind)?.confirmation, params, rows[0], kind);
}
