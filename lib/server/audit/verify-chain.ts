import "server-only";
import { db } from "@/lib/server/db/client";
import { verifyChainEvents, type ChainStart, type ChainVerification } from "@/lib/domain/audit-chain";

export type { ChainVerification };

/** The newest retention checkpoint of a tenant chain (null: the chain must start at seq 1). */
export async function chainStart(tenantId: string | null): Promise<ChainStart> {
  if (tenantId === null) return null;
  const cp = await db().auditCheckpoint.findFirst({ where: { tenantId }, orderBy: { lastSeq: "desc" } });
  return cp ? { lastSeq: cp.lastSeq, lastHash: cp.lastHash } : null;
}

/**
 * Walks a tenant's audit chain in order, from its newest retention checkpoint, and names the first broken
 * event (lib/domain/audit-chain.ts).
 */
export async function verifyAuditChain(tenantId: string | null): Promise<ChainVerification> {
  const start = await chainStart(tenantId);
  const rows = await db().auditEvent.findMany({ where: { tenantId }, orderBy: { seq: "asc" } });
  return verifyChainEvents(rows, start);
}
