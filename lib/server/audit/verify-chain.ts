import "server-only";
import { db } from "@/lib/server/db/client";
import { auditEventHash } from "./event-hash";

export type ChainVerification = { ok: true; events: number } | { ok: false; events: number; brokenAtSeq: number; problem: string };

/** Walks a tenant's audit chain in order and names the first broken link. */
export async function verifyAuditChain(tenantId: string | null): Promise<ChainVerification> {
  const rows = await db().auditEvent.findMany({ where: { tenantId }, orderBy: { seq: "asc" } });
  let prev: string | null = null;
  let expectedSeq = rows[0]?.seq ?? 1;
  for (const r of rows) {
    if (r.seq !== expectedSeq) return { ok: false, events: rows.length, brokenAtSeq: r.seq, problem: `expected seq ${expectedSeq}` };
    if (r.prevHash !== prev && !(r === rows[0] && r.seq > 1)) {
      return { ok: false, events: rows.length, brokenAtSeq: r.seq, problem: "prevHash does not match the previous event" };
    }
    if (auditEventHash(r) !== r.hash) return { ok: false, events: rows.length, brokenAtSeq: r.seq, problem: "content does not match its hash" };
    prev = r.hash;
    expectedSeq += 1;
  }
  return { ok: true, events: rows.length };
}
