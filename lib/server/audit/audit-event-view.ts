import "server-only";
import type { ChainedEvent } from "@/lib/domain/audit-chain";

/** One audit event as auditors see it (already redacted at write time): the chained event, time as ISO text. */
export type AuditEventView = Omit<ChainedEvent, "occurredAt" | "tenantId"> & { occurredAt: string };

type Row = Omit<AuditEventView, "occurredAt"> & { occurredAt: Date; tenantId?: string | null };

export function toAuditEventView(r: Row): AuditEventView {
  return {
    id: r.id, seq: r.seq, occurredAt: r.occurredAt.toISOString(), traceId: r.traceId, actorType: r.actorType, actorId: r.actorId,
    authMethod: r.authMethod, action: r.action, outcome: r.outcome, proposalId: r.proposalId, proposalHash: r.proposalHash,
    model: r.model, promptVersion: r.promptVersion, channel: r.channel, endUser: r.endUser, data: r.data, fingerprints: r.fingerprints,
    prevHash: r.prevHash, hash: r.hash,
  };
}
