import "server-only";
import type { LoggedEvent } from "@/lib/domain/audit-log";
import type { Db, Tx } from "@/lib/server/db/client";

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

/** The leaf index of each integrated event among `ids` (one indexed lookup on AuditLeaf.eventId). */
export async function leafIndexesOf(r: Tx | Db, ids: readonly string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const leaves = await r.auditLeaf.findMany({ where: { eventId: { in: [...ids] } }, select: { eventId: true, leafIndex: true } });
  return new Map(leaves.map((l) => [l.eventId, l.leafIndex]));
}

export async function toAuditEventViews(r: Tx | Db, rows: readonly Row[]): Promise<AuditEventView[]> {
  const idx = await leafIndexesOf(
    r,
    rows.map((x) => x.id),
  );
  return rows.map((x) => toAuditEventView(x, idx.get(x.id) ?? null));
}

/**
 * The events with their actors' names: staff users and agent keys looked up by id in the viewer's tenant
 * only (an id from another tenant's row, were there one, names nobody here). Two indexed lookups per page.
 */
export async function withActorNames(r: Tx | Db, tenantId: string, events: AuditEventView[]): Promise<AuditEventView[]> {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  const idsOf = (type: string) => [...new Set(events.filter((e) => e.actorType === type && e.actorId && uuid.test(e.actorId)).map((e) => e.actorId!))];
  const staffIds = idsOf("staff");
  const agentIds = idsOf("agent");
  const [staff, agents] = await Promise.all([
    staffIds.length ? r.staffUser.findMany({ where: { tenantId, id: { in: staffIds } }, select: { id: true, name: true, email: true } }) : [],
    agentIds.length ? r.agentKey.findMany({ where: { tenantId, id: { in: agentIds } }, select: { id: true, name: true } }) : [],
  ]);
  const names = new Map<string, string>([
    ...staff.map((s) => [`staff:${s.id}`, `${s.name} <${s.email}>`] as const),
    ...agents.map((a) => [`agent:${a.id}`, a.name] as const),
  ]);
  return events.map((e) => ({ ...e, actorName: e.actorId ? (names.get(`${e.actorType}:${e.actorId}`) ?? null) : null }));
}
