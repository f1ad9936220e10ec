import "server-only";
import pg from "pg";
import {
  appendLeaves,
  consistencyProof,
  frontierRefs,
  frontierRoot,
  getterOf,
  neededNodes,
  type Frontier,
  type NodeGetter,
  type NodeRef,
  type StoredNode,
} from "@/lib/domain/merkle";
import { TENANTLESS_LOG, divergenceFrom, type SignedCheckpoint } from "@/lib/domain/audit-log";
import { auditSequencerIntervalMs, databaseUrl } from "@/lib/server/env";
import { dedicatedPgClient } from "@/lib/server/db/pg";
import { log } from "@/lib/server/log";
import type { Span } from "@opentelemetry/api";
import { endIntegrateSpan, startIntegrateSpan } from "@/lib/server/telemetry/audit-span";
import { auditOrigin, signCheckpoint, signCheckpointNote } from "./signing-key";
import { submitToWitnesses } from "./submit-to-witnesses";
import { DATABASE_IDENTITY_SQL, readSignedHead, writeSignedHead, type DatabaseIdentity } from "./signer-state";

// The audit sequencer (docs/audit.md), Trillian-style: writers only append events and a queue row
// (AuditPending); one sequencer per log — the leader, by a session-level PostgreSQL advisory lock held on its
// own connection — takes queued events in batches, gives them the next leaf indexes, stores the new leaves
// and perfect-subtree nodes, signs a checkpoint and deletes the queue rows, all in one transaction.
// A leader that dies loses its connection and with it the lock: another worker's sequencer takes the log
// over at its next tick. Correctness does not rest on the lock alone: leaves have a primary key
// (logId, leafIndex), so two sequencers could never both commit the same index.

const BATCH_MAX = 2_000;
/** How long a log whose database no longer matches what was signed waits before the next attempt. */
const REFUSED_RETRY_MS = 60_000;
const lockKey = (logId: string) => `audit-sequencer:${logId}`;

type Client = pg.Client | pg.PoolClient;

/** Integrates up to `max` queued events of one log (the caller holds the log's lock). Returns how many. */
export async function integrateBatch(
  client: Client,
  logId: string,
  max = BATCH_MAX,
): Promise<{ integrated: number; checkpoint: SignedCheckpoint | null }> {
  await client.query("BEGIN");
  let span: Span | null = null;
  try {
    // occurredAt travels as text: a UTC timestamp copied as is, whatever the process time zone.
    const pending = await client.query<{
      eventId: string;
      leafHash: string;
      occurredAt: string;
      traceparent: string | null;
    }>(
      `SELECT "eventId", "leafHash", "occurredAt"::text AS "occurredAt", "traceparent" FROM "AuditPending" WHERE "logId" = $1 ORDER BY "pos" LIMIT $2`,
      [logId, max],
    );
    if (pending.rows.length === 0) {
      await client.query("COMMIT");
      return { integrated: 0, checkpoint: null };
    }
    span = startIntegrateSpan(logId, pending.rows);
    const sizeRow = await client.query<{ size: number }>(
      `SELECT COALESCE(max("leafIndex") + 1, 0)::int AS size FROM "AuditLeaf" WHERE "logId" = $1`,
      [logId],
    );
    const size = sizeRow.rows[0]!.size;
    const refs = frontierRefs(size);
    const byKey = new Map((await fetchNodes(client, logId, refs)).map((n) => [`${n.level}:${n.index}`, n]));
    const nodes = refs.map((r) => {
      const n = byKey.get(`${r.level}:${r.index}`);
      if (!n) throw new Error(`audit log ${logId}: frontier node ${r.level}:${r.index} of size ${size} is missing`);
      return n;
    });
    const identity = await identityOf(client);
    await refuseSecondHistory(client, identity, logId, { size, nodes });
    const { frontier, created } = appendLeaves(
      { size, nodes },
      pending.rows.map((p) => p.leafHash),
    );
    const rows = pending.rows;
    await client.query(
      `INSERT INTO "AuditLeaf" ("logId", "leafIndex", "eventId", "leafHash", "occurredAt")
       SELECT $1, * FROM unnest($2::int[], $3::uuid[], $4::text[], $5::timestamp[])`,
      [
        logId,
        rows.map((_, i) => size + i),
        rows.map((r) => r.eventId),
        rows.map((r) => r.leafHash),
        rows.map((r) => r.occurredAt),
      ],
    );
    const inner = created.filter((n) => n.level > 0);
    if (inner.length)
      await client.query(
        `INSERT INTO "AuditTreeNode" ("logId", "level", "index", "hash") SELECT $1, * FROM unnest($2::int[], $3::int[], $4::text[])`,
        [logId, inner.map((n) => n.level), inner.map((n) => n.index), inner.map((n) => n.hash)],
      );
    const checkpoint = signCheckpoint({
      logId,
      treeSize: frontier.size,
      rootHash: frontierRoot(frontier),
      issuedAt: new Date().toISOString(),
    });
    const origin = auditOrigin(logId);
    const noteSignatures = signCheckpointNote({ origin, treeSize: checkpoint.treeSize, rootHash: checkpoint.rootHash });
    await client.query(
      `INSERT INTO "AuditSignedCheckpoint" ("logId", "treeSize", "rootHash", "issuedAt", "keyId", "signature", "origin", "noteSignatures")
       VALUES ($1, $2, $3, ($4::timestamptz AT TIME ZONE 'UTC'), $5, $6, $7, $8)`,
      [
        logId,
        checkpoint.treeSize,
        checkpoint.rootHash,
        checkpoint.issuedAt,
        checkpoint.keyId,
        checkpoint.signature,
        origin,
        noteSignatures,
      ],
    );
    await client.query(`DELETE FROM "AuditPending" WHERE "eventId" = ANY($1::uuid[])`, [rows.map((r) => r.eventId)]);
    await client.query("COMMIT");
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
    await client.query("ROLLBACK").catch(() => undefined);
    endIntegrateSpan(span, { error });
    throw error;
  }
}

/** Stored perfect-subtree hashes of a log (level 0 from AuditLeaf), in one query. */
async function fetchNodes(client: Client, logId: string, refs: readonly NodeRef[]): Promise<StoredNode[]> {
  if (refs.length === 0) return [];
  const r = await client.query<StoredNode>(
    `SELECT 0 AS level, "leafIndex" AS index, "leafHash" AS hash FROM "AuditLeaf" WHERE "logId" = $1 AND "leafIndex" = ANY($2::int[])
     UNION ALL
     SELECT "level", "index", "hash" FROM "AuditTreeNode" WHERE "logId" = $1 AND ("level", "index") IN (SELECT * FROM unnest($3::int[], $4::int[]))`,
    [
      logId,
      refs.filter((x) => x.level === 0).map((x) => x.index),
      refs.filter((x) => x.level > 0).map((x) => x.level),
      refs.filter((x) => x.level > 0).map((x) => x.index),
    ],
  );
  return r.rows;
}

const identities = new WeakMap<Client, DatabaseIdentity>();
async function identityOf(client: Client): Promise<DatabaseIdentity> {
  let id = identities.get(client);
  if (!id) {
    id = (await client.query<DatabaseIdentity>(DATABASE_IDENTITY_SQL)).rows[0]!;
    identities.set(client, id);
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
  client: Client,
  identity: DatabaseIdentity,
  logId: string,
  before: Frontier,
): Promise<void> {
  const kept = readSignedHead(identity, logId);
  if (!kept) return;
  let proof: string[] | null = null;
  if (kept.treeSize < before.size && kept.treeSize > 0) {
    const run = (g: NodeGetter) => consistencyProof(kept.treeSize, before.size, g);
    try {
      proof = run(getterOf(await fetchNodes(client, logId, neededNodes(run))));
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

async function pendingLogs(client: Client): Promise<string[]> {
  // A loose index scan over AuditPending_logId_pos_idx: one probe per log, however long the queue.
  const r = await client.query<{ logId: string }>(`
    WITH RECURSIVE logs AS (
      (SELECT "logId" FROM "AuditPending" ORDER BY "logId" LIMIT 1)
      UNION ALL
      SELECT (SELECT "logId" FROM "AuditPending" WHERE "logId" > logs."logId" ORDER BY "logId" LIMIT 1) FROM logs WHERE logs."logId" IS NOT NULL
    ) SELECT "logId" FROM logs WHERE "logId" IS NOT NULL`);
  return r.rows.map((x) => x.logId);
}

async function integrateLog(client: Client, logId: string): Promise<number> {
  let total = 0;
  for (;;) {
    const { integrated } = await integrateBatch(client, logId);
    total += integrated;
    if (integrated < BATCH_MAX) return total;
  }
}

/**
 * Integrates everything queued now, in this process (tests, scripts, `npm run audit:verify`): waits for
 * each log's lock, so it never runs beside a live leader of that log. Returns the events integrated.
 */
export async function integratePending(opts: { databaseUrl?: string; lockTimeoutMs?: number } = {}): Promise<number> {
  const client = dedicatedPgClient({ connectionString: opts.databaseUrl ?? databaseUrl() });
  await client.connect();
  try {
    await client.query(`SET lock_timeout = ${Math.max(1, Math.floor(opts.lockTimeoutMs ?? 10_000))}`);
    let total = 0;
    for (const logId of await pendingLogs(client)) {
      await client.query(`SELECT pg_advisory_lock(hashtextextended($1, 0))`, [lockKey(logId)]);
      try {
        total += await integrateLog(client, logId);
      } finally {
        await client.query(`SELECT pg_advisory_unlock(hashtextextended($1, 0))`, [lockKey(logId)]);
      }
    }
    return total;
  } finally {
    await client.end();
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
  let client: pg.Client | null = null;
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

  const connect = async () => {
    const c = dedicatedPgClient({ connectionString: url, applicationName: "audit-sequencer" });
    c.on("error", (error) => log.error({ component: "audit-sequencer", err: error }, "sequencer connection error"));
    await c.connect();
    return c;
  };

  const tick = async () => {
    client ??= await connect();
    if (Date.now() - partitionsCheckedAt > 3_600_000) {
      await client.query(`SELECT "audit_event_ensure_partitions"((now() AT TIME ZONE 'UTC')::date, 3)`);
      partitionsCheckedAt = Date.now();
    }
    for (const logId of await pendingLogs(client)) {
      if (!led.has(logId)) {
        const r = await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS ok`, [
          lockKey(logId),
        ]);
        if (!r.rows[0]?.ok) continue;
        led.add(logId);
        log.info({ component: "audit-sequencer", logId }, "leading audit log");
      }
      if ((refusedUntil.get(logId) ?? 0) > Date.now()) continue;
      try {
        total += await integrateLog(client, logId);
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
        const c = client as pg.Client | null;
        client = null;
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
      const c = client;
      await c?.end().catch(() => undefined);
      client = null;
      led.clear();
    },
    leading: () => [...led],
    integrated: () => total,
  };
}
