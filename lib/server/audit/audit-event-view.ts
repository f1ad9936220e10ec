import "server-only";

/** One audit event as auditors see it (already redacted at write time). */
export type AuditEventView = {
  id: string;
  seq: number;
  occurredAt: string;
  traceId: string;
  actorType: string;
  actorId: string | null;
  authMethod: string | null;
  action: string;
  outcome: string;
  proposalId: string | null;
  proposalHash: string | null;
  model: string | null;
  promptVersion: string | null;
  channel: string | null;
  endUser: string | null;
  data: unknown;
  fingerprints: string[];
  prevHash: string | null;
  hash: string;
};

type Row = Omit<AuditEventView, "occurredAt"> & { occurredAt: Date; tenantId?: string | null };

export function toAuditEventView(r: Row): AuditEventView {
  return {
    id: r.id, seq: r.seq, occurredAt: r.occurredAt.toISOString(), traceId: r.traceId, actorType: r.actorType, actorId: r.actorId,
    authMethod: r.authMethod, action: r.action, outcome: r.outcome, proposalId: r.proposalId, proposalHash: r.proposalHash,
    model: r.model, promptVersion: r.promptVersion, channel: r.channel, endUser: r.endUser, data: r.data, fingerprints: r.fingerprints,
    prevHash: r.prevHash, hash: r.hash,
  };
}
