import "server-only";
import { createHash } from "node:crypto";
import canonicalize from "canonicalize";

// Chain recipe (v2). Each event has
//   contentHash = sha256 hex of the RFC 8785 canonical JSON of its content (everything below), and
//   hash        = sha256 hex of  `${prevHash ?? ""}\n${seq}\n${contentHash}`  (UTF-8),
// where prevHash is the hash of the previous event of the same tenant chain. The content hash is computed
// in Node before the chain lock; the link hash is computed by PostgreSQL in the INSERT itself
// (record-event.ts), so the per-tenant critical section is one statement. Both sides are here for the
// verifier.

/** The fields of an audit event covered by its content hash (not id, seq, prevHash or hash). */
export type AuditContent = {
  tenantId: string | null;
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
};

export function auditContentHash(e: AuditContent): string {
  const json = canonicalize({
    v: 2,
    tenantId: e.tenantId,
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
  });
  if (json === undefined) throw new Error("audit event could not be canonicalized");
  return createHash("sha256").update(json, "utf8").digest("hex");
}

/** The link hash; PostgreSQL computes the same in record-event.ts. */
export function auditLinkHash(prevHash: string | null, seq: number, contentHash: string): string {
  return createHash("sha256").update(`${prevHash ?? ""}\n${seq}\n${contentHash}`, "utf8").digest("hex");
}

/** What a stored event's hash must be. */
export function auditEventHash(e: AuditContent & { seq: number; prevHash: string | null }): string {
  return auditLinkHash(e.prevHash, e.seq, auditContentHash(e));
}
