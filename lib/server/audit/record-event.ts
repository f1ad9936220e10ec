import "server-only";
import { randomUUID } from "node:crypto";
import { redact, scrubText, truncateText, wellFormed, type RedactionPolicy } from "@/lib/domain/redaction";
import { prepared, sql, type Sql } from "@/lib/server/db/sql";
import { auditFingerprint } from "./fingerprint";
import { auditLeafHash, logIdOf } from "@/lib/domain/audit-log";
// The writing span's context rides on the queue row only (not the event: it is not evidence), so the
// sequencer's span can link to the traces whose events it integrates (docs/observability.md).
import { currentTraceparent } from "@/lib/server/telemetry/tracing";
import { isUuid } from "@/lib/domain/validation";

/**
 * Input of `recordAuditEvent`. Pass raw values: this writer redacts before anything is stored.
 *
 * - `tenantId`: the tenant whose chain the event joins; null only when no tenant can be known
 *   (an unknown agent key, a sign-in with an unknown email) — those form their own chain.
 * - `traceId`: the request's trace id (agent calls) or any correlation id (staff actions).
 * - `actor`: who acted and how they were authenticated, e.g. `{ type: "staff", id: user.id,
 *   authMethod: "password" | "passkey" | "oidc" }`, `{ type: "agent", id: agentKeyId, authMethod:
 *   "agent_key" }`, `{ type: "system", id: "worker" }`.
 * - `action`: what was attempted: "tool:prepare_refund", "auth:sign_in", "proposal:approve", …
 * - `outcome`: an outcome code (lib/domain/outcome.ts), e.g. "ok", "permission_denied", "unauthenticated".
 * - `proposal`: id and hash when the event concerns a proposal.
 * - `model`, `promptVersion`, `channel`: agent calls (from headers / key); scrubbed and truncated.
 * - `endUser`: the raw end-user / customer id; stored only as its keyed fingerprint.
 * - `data`: any details (arguments, error details, email typed at sign-in…): redacted with `redaction`
 *   (`clear` = the field names allowed to stay in clear; everything else is scrubbed or fingerprinted;
 *   secrets such as authorization, tokens, passwords and keys are dropped).
 *
 * Call it inside the transaction that makes the effect, with that transaction's handle of the typed SQL layer
 * (lib/server/db/sql.ts): `sqlOf(tx)` in `transaction(async (tx) => …)`, or the agent gateway's pg
 * transaction (`withPgTransaction`, lib/server/db/pg.ts). It takes no
 * lock and reads nothing: one INSERT of the event (with its RFC 9162 leaf hash, computed here) and of its
 * queue row for the sequencer, which gives it its place in the tenant's Merkle tree after commit
 * (lib/server/audit/sequencer.ts). If it throws, let the transaction roll back: no effect without its event.
 */
export type AuditEventInput = {
  tenantId: string | null;
  traceId: string;
  actor: { type: "agent" | "staff" | "system" | "end_user"; id?: string | null; authMethod?: string | null };
  action: string;
  outcome: string;
  proposal?: { id: string; hash: string } | null;
  model?: string | null;
  promptVersion?: string | null;
  channel?: string | null;
  endUser?: string | null;
  data?: unknown;
  redaction?: RedactionPolicy;
};

export type RecordedAuditEvent = { id: string; hash: string };

/** The event of something a signed-in staff member did in their own tenant: who and how they signed in. */
export function recordStaffEvent(
  tx: Sql,
  actor: { tenantId: string; userId: string; authMethod: string },
  input: Omit<AuditEventInput, "tenantId" | "actor">,
): Promise<RecordedAuditEvent> {
  return recordAuditEvent(tx, {
    ...input,
    tenantId: actor.tenantId,
    actor: { type: "staff", id: actor.userId, authMethod: actor.authMethod },
  });
}

/**
 * The audit event of a command the operator runs on the server: the system actor "operator" (like the worker or
 * the retention purge), a trace of its own, outcome ok. `authMethod` is the command path the event has always
 * named: "cli" for tenant:create and admin:grant, "operator_cli" for the commands that share a writer with an API.
 */
export function recordOperatorEvent(
  tx: Sql,
  authMethod: "cli" | "operator_cli",
  input: Omit<AuditEventInput, "actor" | "traceId" | "outcome"> & { tenantId: string },
): Promise<RecordedAuditEvent> {
  return recordAuditEvent(tx, {
    ...input,
    traceId: `operator-${randomUUID()}`,
    actor: { type: "system", id: "operator", authMethod },
    outcome: "ok",
  });
}

const short = (value: string | null | undefined, max: number, seen: Set<string>): string | null =>
  value == null || value === "" ? null : truncateText(scrubText(value, auditFingerprint, seen), max);

// Staff user and agent key ids are UUIDs: kept as they are (free-text scrubbing could take their digit runs
// for a phone number and fingerprint the id, so "who did it" would be lost).
const actorIdOf = (id: string | null | undefined, seen: Set<string>): string | null =>
  id && isUuid(id) ? id.toLowerCase() : short(id, 128, seen);

export async function recordAuditEvent(tx: Sql, input: AuditEventInput): Promise<RecordedAuditEvent> {
  const { data, fingerprints } = redact(input.data ?? {}, auditFingerprint, input.redaction);
  const seen = new Set(fingerprints);
  const endUser = input.endUser ? auditFingerprint(input.endUser) : null;
  if (endUser) seen.add(endUser);

  const id = randomUUID();
  const occurredAt = new Date();
  const content = {
    id,
    tenantId: input.tenantId,
    occurredAt,
    traceId: truncateText(wellFormed(input.traceId), 128),
    actorType: input.actor.type,
    actorId: actorIdOf(input.actor.id, seen),
    authMethod: short(input.actor.authMethod, 64, seen),
    action: short(input.action, 128, seen) ?? "unknown",
    outcome: short(input.outcome, 64, seen) ?? "unknown",
    proposalId: input.proposal?.id ?? null,
    proposalHash: input.proposal?.hash ?? null,
    model: short(input.model, 100, seen),
    promptVersion: short(input.promptVersion, 100, seen),
    channel: short(input.channel, 64, seen),
    endUser,
    data,
    fingerprints: [...seen].sort(),
  };
  const hash = auditLeafHash(content);
  const at = occurredAt.toISOString();

  // One statement, one round trip: the event and its queue row (prepared: its text never changes). `pos` comes from a sequence (no lock,
  // no read of other rows), so concurrent writers of one tenant never wait for each other.
  await prepared(
    sql`
    WITH e AS (
      INSERT INTO "AuditEvent" ("id", "tenantId", "occurredAt", "traceId", "actorType", "actorId", "authMethod", "action", "outcome",
                                "proposalId", "proposalHash", "model", "promptVersion", "channel", "endUser", "data", "fingerprints", "hash")
      VALUES (${id}::uuid, ${input.tenantId}::uuid, (${at}::timestamptz AT TIME ZONE 'UTC'), ${content.traceId},
              ${content.actorType}::"AuditActorType", ${content.actorId}, ${content.authMethod}, ${content.action}, ${content.outcome},
              ${content.proposalId}::uuid, ${content.proposalHash}, ${content.model}, ${content.promptVersion}, ${content.channel}, ${content.endUser},
              ${JSON.stringify(content.data ?? {})}::jsonb, ${content.fingerprints}::text[], ${hash})
      RETURNING "pos"
    )
    INSERT INTO "AuditPending" ("eventId", "logId", "pos", "leafHash", "occurredAt", "traceparent")
    SELECT ${id}::uuid, ${logIdOf(input.tenantId)}::uuid, e."pos", ${hash}, (${at}::timestamptz AT TIME ZONE 'UTC'), ${currentTraceparent()} FROM e`,
  ).execute(tx);
  return { id, hash };
}
