import "server-only";
import { randomUUID } from "node:crypto";
import { Prisma } from "@/lib/server/db/generated/client";
import { redact, scrubText, truncateText, wellFormed, type RedactionPolicy } from "@/lib/domain/redaction";
import type { Tx } from "@/lib/server/db/client";
import { auditFingerprint } from "./fingerprint";
import { auditContentHash } from "./event-hash";

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
 * Call it inside the transaction that makes the effect (`db().$transaction(async (tx) => …)`), as its
 * last statement: it takes a per-tenant advisory lock until commit to keep the chain linear. If it
 * throws, let the transaction roll back: no effect without its audit event.
 */
export type AuditEventInput = {
  tenantId: string | null;
  traceId: string;
  actor: { type: "agent" | "staff" | "system"; id?: string | null; authMethod?: string | null };
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

export type RecordedAuditEvent = { id: string; seq: number; hash: string };

const short = (value: string | null | undefined, max: number, seen: Set<string>): string | null =>
  value == null || value === "" ? null : truncateText(scrubText(value, auditFingerprint, seen), max);

// Staff user and agent key ids are UUIDs: kept as they are (free-text scrubbing could take their digit runs
// for a phone number and fingerprint the id, so "who did it" would be lost).
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const actorIdOf = (id: string | null | undefined, seen: Set<string>): string | null => (id && UUID.test(id) ? id.toLowerCase() : short(id, 128, seen));

export async function recordAuditEvent(tx: Tx, input: AuditEventInput): Promise<RecordedAuditEvent> {
  const { data, fingerprints } = redact(input.data ?? {}, auditFingerprint, input.redaction);
  const seen = new Set(fingerprints);
  const endUser = input.endUser ? auditFingerprint(input.endUser) : null;
  if (endUser) seen.add(endUser);

  const content = {
    tenantId: input.tenantId,
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
  };

  const occurredAt = new Date();
  const fingerprintList = [...seen].sort();
  const contentHash = auditContentHash({ ...content, occurredAt, fingerprints: fingerprintList });
  const id = randomUUID();

  // The chain's critical section, kept to one statement: one writer at a time per tenant chain (advisory
  // lock until this transaction ends), then a single INSERT that reads the chain head, takes the next seq
  // and computes the link hash in PostgreSQL. Two statements, not one: the INSERT must take its snapshot
  // after the lock is granted, or it could miss the previous holder's event and fork the chain.
  const chain = `audit-chain:${input.tenantId ?? "none"}`;
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${chain}, 0))`;
  const sameChain = input.tenantId === null ? Prisma.sql`"tenantId" IS NULL` : Prisma.sql`"tenantId" = ${input.tenantId}::uuid`;
  const [row] = await tx.$queryRaw<{ seq: number; hash: string }[]>`
    WITH head AS (
      SELECT "seq", "hash" FROM "AuditEvent" WHERE ${sameChain} ORDER BY "seq" DESC LIMIT 1
    ), next AS (
      SELECT COALESCE((SELECT "seq" FROM head), 0) + 1 AS "seq", (SELECT "hash" FROM head) AS "prevHash"
    )
    INSERT INTO "AuditEvent" ("id", "tenantId", "seq", "occurredAt", "traceId", "actorType", "actorId", "authMethod", "action", "outcome",
                              "proposalId", "proposalHash", "model", "promptVersion", "channel", "endUser", "data", "fingerprints", "prevHash", "hash")
    SELECT ${id}::uuid, ${input.tenantId}::uuid, next."seq", (${occurredAt.toISOString()}::timestamptz AT TIME ZONE 'UTC'), ${content.traceId},
           ${content.actorType}::"AuditActorType", ${content.actorId}, ${content.authMethod}, ${content.action}, ${content.outcome},
           ${content.proposalId}::uuid, ${content.proposalHash}, ${content.model}, ${content.promptVersion}, ${content.channel}, ${content.endUser},
           ${JSON.stringify(content.data ?? {})}::jsonb, ${fingerprintList}::text[], next."prevHash",
           encode(sha256(convert_to(COALESCE(next."prevHash", '') || E'\n' || next."seq"::text || E'\n' || ${contentHash}, 'UTF8')), 'hex')
      FROM next
    RETURNING "seq", "hash"`;
  if (!row) throw new Error("audit event was not written");
  return { id, seq: row.seq, hash: row.hash };
}
