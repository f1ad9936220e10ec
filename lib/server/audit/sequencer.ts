import "server-only";
import {
  appendLeaves,
  consistencyProof,
  frontierRefs,
  frontierRoot,
  type Frontier,
  type NodeGetter,
} from "@/lib/domain/merkle";
import { TENANTLESS_LOG, divergenceFrom, type SignedCheckpoint } from "@/lib/domain/audit-log";
import { auditSequencerIntervalMs, databaseUrl } from "@/lib/server/env";
import { connectDedicatedSql, type DedicatedSql } from "@/lib/server/db/pg";
import { sql, utc, type Sql, nowUtc } from "@/lib/server/db/sql";
import { log } from "@/lib/server/log";
import type { Span } from "@opentelemetry/api";
import { endIntegrateSpan, startIntegrateSpan } from "@/lib/server/telemetry/audit-span";
import { auditOrigin, signCheckpoint, signCheckpointNote } from "./signing-key";
import { submitToWitnesses } from "./submit-to-witnesses";
import { readDatabaseIdentity, readSignedHead, writeSignedHead, type DatabaseIdentity } from "./signer-state";
import { loadNodes, withNodes } from "./tree-store";

// The audit sequencer (docs/audit.md), Trillian-style: writers only append events and a queue row
// (AuditPending); one sequencer per log — the leader, by a session-level PostgreSQL advisory lock held on its
// own connection — takes queued events in batches, gives them the next leaf indexes, stores the new leaves
// and perfect-subtree nodes, signs a checkpoint and deletes the queue rows, all in one transaction.
// A leader that dies loses its connection and with it the lock: another worker's sequencer takes the log
// over at its next tick. Correctness does not rest on the lock alone: leaves have a primary key
// (logId, leafIndex), so two sequencers could never both commit the same index.
//
// Its statements run on that one connection as a handle of the typed SQL layer (connectDedicatedSql,
// lib/server/db/pg.ts), so BEGIN … COMMIT and the session's advisory locks stay on it.

const BATCH_MAX = 2_000;
/** How long a log whose database no longer matches what was signed waits before the next attempt. */
const REFUSED_RETRY_MS = 60_000;
const lockKey = (logId: string) => `audit-sequencer:${logId}`;

/**
 * Integrates up to `max` queued events of one log (the caller holds the log's lock). Returns how many. `session`
 * is a dedicated connection's handle: the batch is its own transaction on it.
 */
export async function integrateBatch(
  session: Sql,
  logId: string,
  max = BATCH_MAX,
): Promise<{ integrated: number; checkpoint: SignedCheckpoint | null }> {
  await sql`BEGIN`.execute(session);
  let span: Span | null = null;
  try {
    // occurredAt travels as text: a UTC timestamp copied as is, whatever the process time zone.
    const rows = await session
      .selectFrom("AuditPending")
      .select(["eventId", "leafHash", sql<string>`"occurredAt"::text`.as("occurredAt"), "traceparent"])
      .where("logId", "=", logId)
      .orderBy("pos")
      .limit(max)
      .execute();
    if (rows.length === 0) {
      await sql`COMMIT`.execute(session);
      return { integrated: 0, checkpoint: null };
    }
    span = startIntegrateSpan(logId, rows);
    const { size } = await session
      .selectFrom("AuditLeaf")
      .select(sql<number>`COALESCE(max("leafIndex") + 1, 0)::int`.as("size"))
      .where("logId", "=", logId)
      .executeTakeFirstOrThrow();
    const refs = frontierRefs(size);
    const byKey = new Map((await loadNodes(session, logId, refs)).map((n) => [`${n.level}:${n.index}`, n]));
    const nodes = refs.map((r) => {
      const n = byKey.get(`${r.level}:${r.index}`);
      if (!n) throw new Error(`audit log ${logId}: frontier node ${r.level}:${r.index} of size ${size} is missing`);
      return n;
    });
    const identity = await identityOf(session);
    await refuseSecondHistory(session, identity, logId, { size, nodes });
    const { frontier, created } = appendLeaves(
      { size, nodes },
      rows.map((p) => p.leafHash),
    );
    await sql`
      INSERT INTO "AuditLeaf" ("logId", "leafIndex", "eventId", "leafHash", "occurredAt")
      SELECT ${logId}::uuid, * FROM unnest(${rows.map((_, i) => size + i)}::int[], ${rows.map((r) => r.eventId)}::uuid[],
                                          ${rows.map((r) => r.leafHash)}::text[], ${rows.map((r) => r.occurredAt)}::timestamp[])`.execute(
      session,
    );
    const inner = created.filter((n) => n.level > 0);
    if (inner.length)
      await sql`
        INSERT INTO "AuditTreeNode" ("logId", "level", "index", "hash")
        SELECT ${logId}::uuid, * FROM unnest(${inner.map((n) => n.level)}::int[], ${inner.map((n) => n.index)}::int[],
                                            ${inner.map((n) => n.hash)}::text[])`.execute(session);
    const checkpoint = signCheckpoint({
      logId,
      treeSize: frontier.size,
      rootHash: frontierRoot(frontier),
      issuedAt: new Date().toISOString(),
    });
    const origin = auditOrigin(logId);
    const noteSignatures = signCheckpointNote({ origin, treeSize: checkpoint.treeSize, rootHash: checkpoint.rootHash });
    await session
      .insertInto("AuditSignedCheckpoint")
      .values({
        logId,
        treeSize: checkpoint.treeSize,
        rootHash: checkpoint.rootHash,
        issuedAt: utc(new Date(checkpoint.issuedAt)),
        keyId: checkpoint.keyId,
        signature: checkpoint.signature,
        origin,
        noteSignatures,
      })
      .execute();
    await session
      .deleteFrom("AuditPending")
      .where("eventId", "=", (eb) => eb.fn.any(eb.val(rows.map((r) => r.eventId))))
      .execute();
    await sql`COMMIT`.execute(session);
    // Remembered once committed: a signature that never committed was never published. A crash before this
    // line leaves an older head, from which the next batch proves consistency.
    writeSignedHead(identity, logId, {
      treeSize: checkpoint.treeSize,
      rootHash: checkpoint.rootHash,
      issuedAt: checkpoint.issuedAt,
      keyId: checkpoint.keyId,
    });
    endIntegrateSpan(span, { treeSize: checkpoint.treeSize });
    return { integrated: rows.length, checkpoint };
  } catch (error) {
    await sql`ROLLBACK`.execute(session).catch(() => undefined);
    endIntegrateSpan(span, { error });
    throw error;
  }
}

const identities = new WeakMap<Sql, DatabaseIdentity>();
async function identityOf(session: Sql): Promise<DatabaseIdentity> {
  let id = identities.get(session);
  if (!id) {
    id = await readDatabaseIdentity(session);
    identities.set(session, id);
  }
  return id;
}

/** Thrown instead of signing: the database's tree is not a continuation of what this signer signed. */
export class SecondHistoryError extends Error {
  constructor(
    readonly logId: string,
    problem: string,
  ) {
    super(`audit log ${logId}: refusing to sign: ${problem}`);
  }
}

/**
 * Before signing anything after the tree `before`: it must extend the last head this signer signed (kept
 * outside the database, lib/server/audit/signer-state.ts) — same root at the same size, or a valid
 * consistency proof from the stored nodes. A deleted tail, a rewritten tree or a different root at a signed
 * size is refused: the log then stays unsigned (and /api/health says so) rather than sign a second history.
 */
async function refuseSecondHistory(
  session: Sql,
  identity: DatabaseIdentity,
  logId: string,
  before: Frontier,
): Promise<void> {
  const kept = readSignedHead(identity, logId);
  if (!kept) return;
  let proof: string[] | null = null;
  if (kept.treeSize < before.size && kept.treeSize > 0) {
    try {
      proof = await withNodes(session, logId, (g: NodeGetter) => consistencyProof(kept.treeSize, before.size, g));
    } catch {
      proof = null; // a stored node is missing: no proof, refused below
    }
  } else if (kept.treeSize === 0) proof = [];
  const problem = divergenceFrom(kept, { treeSize: before.size, rootHash: frontierRoot(before) }, proof);
  if (problem) {
    log.error(
      { component: "audit-sequencer", logId, kept: kept.treeSize, size: before.size },
      `refusing to sign: ${problem}`,
    );
    throw new SecondHistoryError(logId, problem);
  }
}

async function pendingLogs(session: Sql): Promise<string[]> {
  // A loose index scan over AuditPending_logId_pos_idx: one probe per log, however long the queue.
  const { rows } = await sql<{ logId: string }>`
    WITH RECURSIVE logs AS (
      (SELECT "logId" FROM "AuditPending" ORDER BY "logId" LIMIT 1)
      UNION ALL
      SELECT (SELECT "logId" FROM "AuditPending" WHERE "logId" > logs."logId" ORDER BY "logId" LIMIT 1) FROM logs WHERE logs."logId" IS NOT NULL
    ) SELECT "logId" FROM logs WHERE "logId" IS NOT NULL`.execute(session);
  return rows.map((x) => x.logId);
}

/** Session-level advisory locks, one per log: held until unlocked or until the connection closes. */
const lockLog = (session: Sql, logId: string) =>
  sql`SELECT pg_advisory_lock(hashtextextended(${lockKey(logId)}, 0))`.execute(session);
const unlockLog = (session: Sql, logId: string) =>
  sql`SELECT pg_advisory_unlock(hashtextextended(${lockKey(logId)}, 0))`.execute(session);
async function tryLockLog(session: Sql, logId: string): Promise<boolean> {
  const { rows } = await sql<{
    ok: boolean;
  }>`SELECT pg_try_advisory_lock(hashtextextended(${lockKey(logId)}, 0)) AS ok`.execute(session);
  return rows[0]?.ok === true;
}

async function integrateLog(session: Sql, logId: string): Promise<number> {
  let total = 0;
  for (;;) {
    const { integrated } = await integrateBatch(session, logId);
    total += integrated;
    if (integrated < BATCH_MAX) return total;
  }
}

/**
 * Integrates everything queued now, in this process (tests, scripts, `npm run audit:verify`): waits for
 * each log's lock, so it never runs beside a live leader of that log. Returns the events integrated.
 */
export async function integratePending(opts: { databaseUrl?: string; lockTimeoutMs?: number } = {}): Promise<number> {
  const { sql: session, end } = await connectDedicatedSql({ connectionString: opts.databaseUrl ?? databaseUrl() });
  try {
    // For the whole session (is_local = false): every lock wait below, not one transaction's.
    const lockTimeout = String(Math.max(1, Math.floor(opts.lockTimeoutMs ?? 10_000)));
    await sql`SELECT set_config('lock_timeout', ${lockTimeout}, false)`.execute(session);
    let total = 0;
    for (const logId of await pendingLogs(session)) {
      await lockLog(session, logId);
      try {
        total += await integrateLog(session, logId);
      } finally {
        await unlockLog(session, logId);
      }
    }
    return total;
  } finally {
    await end();
  }
}

export type Sequencer = { stop: () => Promise<void>; leading: () => string[]; integrated: () => number };

/**
 * The long-running sequencer of a worker process: every `intervalMs` it looks for logs with queued
 * events, takes the lead of those no other sequencer leads (pg_try_advisory_lock, held for the life of its
 * connection) and integrates them. Also keeps next months' AuditEvent partitions created.
 */
export function startSequencer(opts: { databaseUrl?: string; intervalMs?: number } = {}): Sequencer {
  const interval = opts.intervalMs ?? auditSequencerIntervalMs();
  const url = opts.databaseUrl ?? databaseUrl();
  let connection: DedicatedSql | null = null;
  const led = new Set<string>();
  let stopped = false;
  let total = 0;
  let partitionsCheckedAt = 0;
  let wake: (() => void) | null = null;
  const refusedUntil = new Map<string, number>();
  // Witnessing is off the hot path: after a log's batches committed, its newest checkpoint goes to its
  // witnesses in the background (one submission per log at a time; the next tick sends the newer one).
  const witnessing = new Set<string>();
  const witness = (logId: string) => {
    if (logId === TENANTLESS_LOG || witnessing.has(logId)) return;
    witnessing.add(logId);
    void submitToWitnesses(logId)
      .catch((error: unknown) =>
        log.error({ component: "audit-witness", logId, err: error }, "witness submission failed"),
      )
      .finally(() => witnessing.delete(logId));
  };

  const connect = () =>
    connectDedicatedSql({
      connectionString: url,
      applicationName: "audit-sequencer",
      onError: (error) => log.error({ component: "audit-sequencer", err: error }, "sequencer connection error"),
    });

  const tick = async () => {
    connection ??= await connect();
    const session = connection.sql;
    if (Date.now() - partitionsCheckedAt > 3_600_000) {
      await sql`SELECT "audit_event_ensure_partitions"(${nowUtc}::date, 3)`.execute(session);
      partitionsCheckedAt = Date.now();
    }
    for (const logId of await pendingLogs(session)) {
      if (!led.has(logId)) {
        if (!(await tryLockLog(session, logId))) continue;
        led.add(logId);
        log.info({ component: "audit-sequencer", logId }, "leading audit log");
      }
      if ((refusedUntil.get(logId) ?? 0) > Date.now()) continue;
      try {
        total += await integrateLog(session, logId);
        witness(logId);
      } catch (error) {
        // One log that must not be signed does not stop the others; it is tried again a minute later.
        if (!(error instanceof SecondHistoryError)) throw error;
        refusedUntil.set(logId, Date.now() + REFUSED_RETRY_MS);
      }
    }
  };

  const loop = (async () => {
    while (!stopped) {
      try {
        await tick();
      } catch (error) {
        log.error({ component: "audit-sequencer", err: error }, "sequencer tick failed; reconnecting");
        led.clear();
        const c = connection as DedicatedSql | null;
        connection = null;
        await c?.end().catch(() => undefined);
      }
      if (stopped) break;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, interval);
        wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
      wake = null;
    }
  })();

  return {
    async stop() {
      stopped = true;
      wake?.();
      await loop;
      // Closing the connection releases every log lock at once.
      const c = connection;
      await c?.end().catch(() => undefined);
      connection = null;
      led.clear();
    },
    leading: () => [...led],
    integrated: () => total,
  };
}
