import "server-only";
import { parseCheckpointText, parseNote, parseVkey, verifiedBy } from "@/lib/domain/signed-note";
import { db } from "@/lib/server/db/client";
import { sqlPool } from "@/lib/server/db/pg";
import { webhookAllowPrivate } from "@/lib/server/env";
import { log } from "@/lib/server/log";
import { guardedPost, type GuardedAnswer } from "@/lib/server/notifications/guarded-post";
import { getCheckpointNote } from "./get-checkpoint-note";
import { proveConsistency } from "./tree-store";
import { transaction } from "@/lib/server/db/transaction";

const TIMEOUT_MS = 5_000;
const b64 = (hex: string) => Buffer.from(hex, "hex").toString("base64");

type Witness = { id: string; name: string; vkey: string; url: string; cosignedSize: number | null };

/** A witness answers a size (409) or cosignature lines (200): a few hundred bytes. */
const MAX_ANSWER_BYTES = 16 * 1024;

/**
 * What an error status means (c2sp.org/tlog-witness add-checkpoint). `lastError` names the failure in these
 * words and never quotes the answer: admins read it, and the URL is theirs to point anywhere.
 */
const STATUS_MEANING: Record<number, string> = {
  400: "the witness found the request malformed",
  403: "the witness does not trust this log's key",
  404: "the witness does not know this log",
  409: "the witness holds another size than the proof starts from",
  413: "the witness found the request too large",
  422: "the consistency proof does not verify at the witness",
};
const statusError = (status: number) =>
  status >= 300 && status < 400
    ? `${status} redirect not followed`
    : `${status} ${STATUS_MEANING[status] ?? "not a witness answer"}`;

/** One add-checkpoint POST through the webhooks' guarded client: internal addresses refused, no redirect. */
function post(w: Witness, old: number, proof: string[], note: string): Promise<GuardedAnswer> {
  return guardedPost({
    url: `${w.url.replace(/\/+$/, "")}/add-checkpoint`,
    body: `old ${old}\n${proof.map((h) => `${b64(h)}\n`).join("")}\n${note}`,
    headers: { "content-type": "text/plain; charset=utf-8", "user-agent": "approval-gateway-witness/1" },
    timeoutMs: TIMEOUT_MS,
    allowPrivate: webhookAllowPrivate(),
    maxResponseBytes: MAX_ANSWER_BYTES,
    label: "witness",
  });
}

/** The witness's cosignature lines of its key in a 200 answer; none when the answer is not a cosigned note. */
function cosignatureLines(w: Witness, note: string, body: string) {
  try {
    return verifiedBy(parseNote(note).text + "\n" + body, parseVkey(w.vkey));
  } catch {
    return []; // the parser's message may quote the answer: it is not kept
  }
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
    if (!r.ok) return r.error;
    if (r.status === 409 && attempt === 0 && r.complete && /^\d+\n?$/.test(r.body)) {
      old = Number(r.body.trim());
      continue;
    }
    if (r.status !== 200) return statusError(r.status);
    const lines = r.complete ? cosignatureLines(w, note, r.body) : [];
    if (lines.length === 0) return "200 without a valid cosignature of its key";
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
