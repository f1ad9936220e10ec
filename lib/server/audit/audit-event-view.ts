import "server-only";
import type { LoggedEvent } from "@/lib/domain/audit-log";
import type { Tx } from "@/lib/server/db/client";

/**
 * One audit event as auditors see it (already redacted at write time): its content, leaf hash and place in
 * the tenant's Merkle tree — `leafIndex` null while the sequencer has not integrated it yet ("pending").
 */
export type AuditEventView = Omit<LoggedEvent, "occurredAt" | "tenantId"> & {
  occurredAt: string;
  /** Who the actor is, for people: a staff member's name (email beside), an agent key's name; null when
   *  the id names nobody of this tenant (system actors, deleted keys) — the id stays in `actorId`. */
  actorName?: string | null;
};

type Row = Omit<LoggedEvent, "leafIndex"> & { tenantId?: string | null };

export function toAuditEventView(r: Row, leafIndex: number | null): AuditEventView {
  return {
    id: r.id,
    leafIndex,
    occurredAt: r.occurredAt.toISOString(),
    traceId: r.traceId,
    actorType: r.actorType,
    actorId: r.actorId,
    authMethod: r.authMethod,
    action: r.action,
    outcome: r.outcome,
    proposalId: r.proposalId,
    proposalHash: r.proposalHash,
    model: r.model,
    promptVersion: r.promptVersion,
    channel: r.channel,
    endUser: r.endUser,
    data: r.data,
    fingerprints: r.fingerprints,
    hash: r.hash,
  };
}

/**
 * The leaf index of each integrated event among `ids` (one indexed lookup on AuditLeaf.eventId). A model query:
 * it takes Prisma's type (a transaction, or the client itself, which has every model a transaction has).
 */
export async function leafIndexesOf(r: Tx, ids: readonly string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const leaves = await r.auditLeaf.findMany({
    where: { eventId: { in: [...ids] } },
    select: { eventId: true, leafIndex: true },
  });
  return new Map(leaves.map((l) => [l.eventId, l.leafIndex]));
}
