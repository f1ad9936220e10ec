// The audit chain recipe (v2) and its verifier, as pure code: the server, `npm run audit:verify` and the
// offline evidence-pack verifier use the same functions. Each event has
//   contentHash = sha256 hex of the RFC 8785 canonical JSON of its content (AuditContent below), and
//   hash        = sha256 hex of  `${prevHash ?? ""}\n${seq}\n${contentHash}`  (UTF-8),
// where prevHash is the hash of the previous event of the same tenant chain.
import { createHash } from "node:crypto";
import canonicalize from "canonicalize";

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

export type ChainedEvent = AuditContent & { id: string; seq: number; prevHash: string | null; hash: string };

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

/** Where a chain starts after a retention purge: the last purged seq and its hash. */
export type ChainStart = { lastSeq: number; lastHash: string } | null;

export type ChainVerification =
  | { ok: true; events: number }
  | { ok: false; events: number; brokenAtSeq: number; eventId: string | null; problem: string };

/**
 * Walks one tenant's chain (events in ascending seq) and names the first broken event.
 * - Without a checkpoint the chain must start at seq 1 with no prevHash.
 * - With a checkpoint, events at or before `lastSeq` are legal-hold survivors: each must still match its own
 *   hash (their neighbours are gone); the first event after it must have seq lastSeq+1 and link to lastHash.
 * A deleted event shows as a seq gap at the next one; a changed event as a content mismatch; a reordered
 * pair as a link mismatch.
 */
export function verifyChainEvents(rows: readonly ChainedEvent[], start: ChainStart = null): ChainVerification {
  const fail = (r: ChainedEvent | undefined, seq: number, problem: string): ChainVerification => ({
    ok: false,
    events: rows.length,
    brokenAtSeq: seq,
    eventId: r?.id ?? null,
    problem,
  });
  const boundary = start?.lastSeq ?? 0;
  let prev: string | null = start?.lastHash ?? null;
  let expectedSeq = boundary + 1;
  let lastHeldSeq = 0;
  for (const r of rows) {
    if (r.seq <= boundary) {
      if (r.seq <= lastHeldSeq) return fail(r, r.seq, "events are not in seq order");
      lastHeldSeq = r.seq;
      if (auditEventHash(r) !== r.hash) return fail(r, r.seq, "content does not match its hash (held event before the checkpoint)");
      continue;
    }
    if (r.seq !== expectedSeq) return fail(r, r.seq, `expected seq ${expectedSeq}: an event is missing or out of order`);
    if (r.prevHash !== prev) return fail(r, r.seq, "prevHash does not match the previous event");
    if (auditEventHash(r) !== r.hash) return fail(r, r.seq, "content does not match its hash");
    prev = r.hash;
    expectedSeq += 1;
  }
  return { ok: true, events: rows.length };
}
