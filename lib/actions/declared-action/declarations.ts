import "server-only";
// The tenant's active declarations, as the kind reads them (tenant-scoped: another tenant's is never there).
import type { ActionDeclarationSpec } from "@/lib/domain/action-declaration";
import { sqlPool } from "@/lib/server/db/pg";
import { sql, type Sql } from "@/lib/server/db/sql";

export type ActiveDeclaration = { id: string; name: string; version: number; spec: ActionDeclarationSpec };

/** Every active declaration of the tenant, by name. */
export async function activeDeclarations(tenantId: string, tx: Sql = sqlPool()): Promise<ActiveDeclaration[]> {
  const { rows } = await sql<ActiveDeclaration>`
    SELECT d."id", d."name", d."version", d."spec" FROM "ActionDeclaration" d
     WHERE d."tenantId" = ${tenantId}::uuid AND d."status" = 'active'
     ORDER BY d."name"`.execute(tx);
  return rows;
}

/** This exact version while it is still the active one, else null (a read in the caller's transaction). */
export async function activeVersion(
  tx: Sql,
  tenantId: string,
  id: string,
  version: number,
): Promise<ActiveDeclaration | null> {
  const { rows } = await sql<ActiveDeclaration>`
    SELECT d."id", d."name", d."version", d."spec" FROM "ActionDeclaration" d
     WHERE d."tenantId" = ${tenantId}::uuid AND d."id" = ${id}::uuid AND d."version" = ${version}
       AND d."status" = 'active'`.execute(tx);
  return rows[0] ?? null;
}

/** Whether this exact version is still the active one. */
export const isStillActive = async (tx: Sql, tenantId: string, id: string, version: number) =>
  (await activeVersion(tx, tenantId, id, version)) !== null;
