import "server-only";
import { parseCheckpointText, parseNote, parseVkey, verifiedBy } from "@/lib/domain/signed-note";
import { db } from "@/lib/server/db/client";
import { sqlPool } from "@/lib/server/db/pg";
import { log } from "@/lib/server/log";
import { getCheckpointNote } from "./get-checkpoint-note";
import { proveConsistency } from "./tree-store";
import { transaction } from "@/lib/server/db/transaction";

const TIMEOUT_MS = 5_000;
const b64 = (hex: string) => Buffer.from(hex, "hex").toString("base64");

type Witness = { id: string; name: string; vkey: string; url: string; cosignedSize: number | null };

async function post(w: Witness, old: number, proof: string[], note: string): Promise<{ status: number; body: string }> {
  const res = await fetch(`${w.url.replace(/\/+$/, "")}/add-checkpoint`, {
    method: "POST",
    headers: { "content-type": "text/plain; charset=utf-8" },
    body: `old ${old}\n${proof.map((h) => `${b64(h)}\n`).join("")}\n${note}`,
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  return { status: res.status, body: await res.text() };
}

/**
 * Asks one witness to cosign a checkpoint (c2sp.org/tlog-witness add-checkpoint) with the consistency proof
 * from the size it cosigned last. A 409 names the size it really holds: one retry from there. Its
 * cosignature line is verified with its vkey before it is stored. Returns the error, or null.
 */
async function submitOne(logId: string, w: Witness, note: string, size: number): Promise<string | null> {
  // The witness is the authority on what it cosigned: our row may be stale (or rewritten), so a 409 wins.
  let old = w.cosignedSize ?? 0;
  for (let attempt = 0; attempt < 2; attempt++) {
    const proof = old === 0 || old > size ? [] : await proveConsistency(sqlPool(), logId, old, size);
    const r = await post(w, old, proof, note);
    if (r.status === 409 && attempt === 0 && /^\d+\n?$/.test(r.body)) {
      old = Number(r.body.trim());
      continue;
    }
    if (r.status !== 200) return `${r.status} ${r.body.trim().slice(0, 200)}`;
    const lines = verifiedBy(parseNote(note).text + "\n" + r.body, parseVkey(w.vkey));
    if (lines.length === 0) return "200 without a cosignature of its key";
    const cosignedAt = new Date();
    await transaction(async (tx) => {
      await tx.auditCosignature.createMany({
        data: lines.map((l) => ({ logId, treeSize: size, witness: w.name, line: l.line, cosignedAt })),
        skipDuplicates: true,
      });
      await tx.auditWitness.updateMany({
        where: { id: w.id },
        data: { cosignedSize: size, cosignedAt, lastAttemptAt: cosignedAt, lastError: null },
      });
    });
    return null;
  }
  return "409 twice";
}

/**
 * Submits a tenant log's newest C2SP checkpoint to each of its witnesses (in parallel; off the sequencer's
 * hot path: the sequencer calls this after its batch committed and does not wait). Failures are kept on the
 * witness row (`lastError`), where /api/health and the admin page read them.
 */
export async function submitToWitnesses(logId: string): Promise<{ cosigned: number; failed: number }> {
  const witnesses = await db().auditWitness.findMany({
    where: { tenantId: logId },
    select: { id: true, name: true, vkey: true, url: true, cosignedSize: true },
  });
  if (witnesses.length === 0) return { cosigned: 0, failed: 0 };
  // Only the log's own signature lines go to the witness, not other witnesses' cosignatures.
  const note = await getCheckpointNote(logId, undefined, { cosignatures: false });
  const size = parseCheckpointText(parseNote(note).text).treeSize;
  const results = await Promise.all(
    witnesses.map(async (w) => {
      let error: string | null;
      try {
        error = await submitOne(logId, w, note, size);
      } catch (e) {
        error = e instanceof Error ? e.message : String(e);
      }
      if (error) {
        log.warn({ component: "audit-witness", logId, witness: w.name, error }, "witness did not cosign");
        await db().auditWitness.updateMany({
          where: { id: w.id },
          data: { lastAttemptAt: new Date(), lastError: error.slice(0, 500) },
        });
      }
      return error === null;
    }),
  );
  return { cosigned: results.filter(Boolean).length, failed: results.filter((x) => !x).length };
}
