import "server-only";
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SignedHead } from "@/lib/domain/audit-log";
import { sql, type Sql } from "@/lib/server/db/sql";
import { auditSignerStateDir } from "@/lib/server/env";

// The signer's own memory of what it signed (docs/audit.md, "A log that never signs two histories"): per log,
// the last signed (size, root), in a file beside the signing key — never in the database, whose owner can
// rewrite every row (events, leaves, nodes and checkpoints alike). The sequencer checks each new checkpoint
// against it before signing; `audit:verify` and /api/health compare the database with it.
//
// Files live under <AUDIT_SIGNER_STATE_DIR>/<database id>/<logId>.json. The database id is the PostgreSQL
// cluster's system identifier (fixed at initdb; no SQL statement changes it) and the database name, so a
// fresh database (a demo reset, a test database) starts a fresh memory while the same database keeps its own.

export type DatabaseIdentity = { systemIdentifier: string; database: string };

export const databaseKey = (id: DatabaseIdentity) =>
  createHash("sha256").update(`${id.systemIdentifier}/${id.database}`).digest("hex").slice(0, 16);

/** The identity of the database the handle is connected to (a statement every role may run). */
export function readDatabaseIdentity(s: Sql): Promise<DatabaseIdentity> {
  return s
    .selectNoFrom([
      sql<string>`(pg_control_system()).system_identifier::text`.as("systemIdentifier"),
      sql<string>`current_database()`.as("database"),
    ])
    .executeTakeFirstOrThrow();
}

const dirOf = (id: DatabaseIdentity) => join(auditSignerStateDir(), databaseKey(id));
const fileOf = (id: DatabaseIdentity, logId: string) => {
  if (!/^[0-9a-f-]{36}$/.test(logId)) throw new Error(`not a log id: ${logId}`);
  return join(dirOf(id), `${logId}.json`);
};

function parse(text: string, where: string): SignedHead {
  const v = JSON.parse(text) as Partial<SignedHead>;
  if (!Number.isInteger(v.treeSize) || typeof v.rootHash !== "string" || !/^[0-9a-f]{64}$/.test(v.rootHash))
    throw new Error(`${where}: not a signed head (treeSize, rootHash)`);
  return {
    treeSize: v.treeSize!,
    rootHash: v.rootHash,
    issuedAt: String(v.issuedAt ?? ""),
    keyId: String(v.keyId ?? ""),
  };
}

/** The last head this signer signed for the log; null when it never signed one in this database. */
export function readSignedHead(id: DatabaseIdentity, logId: string): SignedHead | null {
  const file = fileOf(id, logId);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  return parse(text, file);
}

/** Every log this signer signed in the database, with its last head (empty when it has no memory of it). */
export function readSignedHeads(id: DatabaseIdentity): Map<string, SignedHead> {
  let names: string[];
  try {
    names = readdirSync(dirOf(id));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return new Map();
    throw error;
  }
  const heads = new Map<string, SignedHead>();
  for (const name of names) {
    const m = /^([0-9a-f-]{36})\.json$/.exec(name);
    if (m) heads.set(m[1]!, parse(readFileSync(join(dirOf(id), name), "utf8"), name));
  }
  return heads;
}

/**
 * Records a head after its checkpoint committed (write to a temporary file, then rename: a reader never sees
 * half a file). Two processes of one machine may record the same log around a change of leader; both heads
 * are prefixes of one history, so whichever lands last is still a true memory.
 */
export function writeSignedHead(id: DatabaseIdentity, logId: string, head: SignedHead): void {
  const file = fileOf(id, logId);
  mkdirSync(dirOf(id), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(head) + "\n", { mode: 0o600 });
  renameSync(tmp, file);
}
