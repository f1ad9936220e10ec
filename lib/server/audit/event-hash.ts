import "server-only";
import { createHash } from "node:crypto";
import canonicalize from "canonicalize";

/** The fields of an audit event covered by its hash (everything but its own id and hash). */
export type ChainedContent = {
  tenantId: string | null;
  seq: number;
  occurredAt: Date;
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
};

/** sha256 hex of the RFC 8785 canonical JSON of the event's content, including the previous hash. */
export function auditEventHash(e: ChainedContent): string {
  const json = canonicalize({
    v: 1,
    tenantId: e.tenantId,
    seq: e.seq,
    occurredAt: e.occurredAt.toISOString(),
    traceId: e.traceId,
    actorType: e.actorType,
    actorId: e.actorId,
    authMethod: e.authMethod,
    action: e.action,
    outcome: e.outcome,
    proposalId: e.proposalId,
    proposalHash: e.proposalHash,
    model: e.model,
    promptVersion: e.promptVersion,
    channel: e.channel,
    endUser: e.endUser,
    data: e.data ?? null,
    fingerprints: e.fingerprints,
    prevHash: e.prevHash,
  });
  if (json === undefined) throw new Error("audit event could not be canonicalized");
  return createHash("sha256").update(json, "utf8").digest("hex");
}
