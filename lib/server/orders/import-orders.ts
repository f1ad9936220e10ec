import "server-only";
import { createHash, randomUUID } from "node:crypto";
import { createReadStream, existsSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { checkCsvHeader, formatOf, parseImportLine, type ImportFormat } from "@/lib/domain/order-import-file";
import { isAppError } from "@/lib/domain/outcome";
import { parseInput, type InputProblem } from "@/lib/domain/validation";
import { orderImportLine, type OrderBodyInput } from "@/lib/schemas/orders-api";
import { db } from "@/lib/server/db/client";
import { sqlPool } from "@/lib/server/db/pg";
import { sql } from "@/lib/server/db/sql";
import { type OrderWriter } from "@/lib/server/orders/upsert-order";
import { auditDigest, upsertOrderBatch, type BatchResult } from "@/lib/server/orders/upsert-order-batch";

export type LineOutcome =
  | { line: number; number: string; outcome: "created" | "updated" | "unchanged" }
  | {
      line: number;
      number: string | null;
      outcome: "refused";
      code: string;
      message: string;
      problems: InputProblem[];
    };

export type ImportSummary = {
  format: ImportFormat;
  read: number;
  skipped: number;
  created: number;
  updated: number;
  unchanged: number;
  refused: number[];
};

export type ImportOptions = {
  tenantSlug: string;
  file: string;
  /** Start after the last line the state file `<file>.import-state.json` records as done. */
  resume?: boolean;
  onLine?: (o: LineOutcome) => void;
  onProgress?: (s: ImportSummary & { bytes: number; totalBytes: number }) => void;
  progressEveryMs?: number;
  /** Lines per batch (default DEFAULT_BATCH_LINES). */
  batchLines?: number;
  /** Called after each batch's commit and state write, with its last line (tests, progress). */
  afterBatch?: (doneThrough: number) => void | Promise<void>;
};

/**
 * The state file: which file, for which tenant, up to which line everything has been applied (or refused), and
 * the import's id, which every batch's audit event carries — so a resume also finds a batch that committed just
 * before a stop that came before its state write.
 */
type ImportState = { tenant: string; size: number; doneThrough: number; importId?: string };
export const stateFileOf = (file: string) => `${file}.import-state.json`;

/** Lines per batch (one transaction, one audit event); `ORDERS_IMPORT_BATCH` or the option overrides it. */
export const DEFAULT_BATCH_LINES = 1000;

type Pending = { line: number; number: string; body: OrderBodyInput };

/**
 * `npm run orders:import -- --tenant SLUG FILE` (docs/systems-of-record.md): the file streamed, each line through
 * the Orders API's schema (`orderImportLine`), the accepted lines written in batches of `batchLines` through
 * upsertOrderBatch — the bulk API's path: the easy new orders set-based (COPY into staging, INSERT … SELECT),
 * every other through the per-order upsert, one transaction and one `orders:batch` audit event per batch (its
 * line range, counts, a digest of its lines, its order numbers), with the operator as actor. A refused line does
 * not stop the others. Resumable: after every batch's commit the state file records its last line; `resume`
 * skips through it (or through the last batch the audit log holds for this import, if that is later).
 */
export async function importOrders(opts: ImportOptions): Promise<ImportSummary> {
  const tenant = await db().tenant.findUnique({ where: { slug: opts.tenantSlug }, select: { id: true } });
  if (!tenant) throw new ImportRefused(`No tenant with the slug "${opts.tenantSlug}".`);
  const totalBytes = statSync(opts.file).size;
  const stateFile = stateFileOf(opts.file);
  let skipThrough = 0;
  let importId: string = randomUUID();
  if (opts.resume && existsSync(stateFile)) {
    const state = JSON.parse(readFileSync(stateFile, "utf8")) as ImportState;
    if (state.tenant !== opts.tenantSlug)
      throw new ImportRefused(
        `The state file ${stateFile} belongs to tenant "${state.tenant}", not "${opts.tenantSlug}".`,
      );
    if (state.size > totalBytes)
      throw new ImportRefused(`The file is shorter than when ${stateFile} was written; it is not the same file.`);
    skipThrough = state.doneThrough;
    if (state.importId) {
      importId = state.importId;
      skipThrough = Math.max(skipThrough, await lastCommittedLine(tenant.id, importId));
    }
  }
  const writer: OrderWriter = {
    tenantId: tenant.id,
    actorId: "operator",
    authMethod: "operator_cli",
    source: "orders_import",
  };
  const format = formatOf(opts.file);
  const summary: ImportSummary = { format, read: 0, skipped: 0, created: 0, updated: 0, unchanged: 0, refused: [] };
  const saveState = (doneThrough: number) => {
    writeFileSync(
      `${stateFile}.tmp`,
      JSON.stringify({ tenant: opts.tenantSlug, size: totalBytes, doneThrough, importId } satisfies ImportState),
    );
    renameSync(`${stateFile}.tmp`, stateFile);
  };
  saveState(skipThrough); // the import's id on disk before its first batch commits
  const batchLines = opts.batchLines ?? (Number(process.env.ORDERS_IMPORT_BATCH) || DEFAULT_BATCH_LINES);

  const input = createReadStream(opts.file, { encoding: "utf8" });
  let bytes = 0;
  input.on("data", (chunk) => (bytes += Buffer.byteLength(chunk as string)));
  const every = opts.progressEveryMs ?? 2000;
  let lastProgress = Date.now();
  let lineNo = 0;
  // The batch being gathered: its accepted lines, the outcomes of its refused ones, its first line and digest.
  let pending: Pending[] = [];
  let refusedHere: LineOutcome[] = [];
  let firstLine = 0;
  let digest = createHash("sha256");
  type Gathered = { pending: Pending[]; refused: LineOutcome[]; firstLine: number; lastLine: number; digest: string };
  const write = async (batch: Gathered) => {
    const outcomes = [...batch.refused];
    if (batch.pending.length > 0) {
      const report = await upsertOrderBatch(writer, batch.pending, `import-${randomUUID()}`, {
        timeoutMs: 120_000,
        audit: { importId, firstLine: batch.firstLine, lastLine: batch.lastLine, digest: batch.digest },
      });
      report.results.forEach((r, k) => outcomes.push(lineOutcomeOf(batch.pending[k]!.line, r)));
    }
    saveState(batch.lastLine);
    outcomes.sort((x, y) => x.line - y.line);
    for (const o of outcomes) {
      if (o.outcome === "refused") summary.refused.push(o.line);
      else summary[o.outcome]++;
      opts.onLine?.(o);
    }
    await opts.afterBatch?.(batch.lastLine);
  };
  // One batch is written while the next is read and checked (the database and this process each busy): at
  // most one in flight, committed in file order, so the state file and the outcomes stay in line order.
  let inflight: Promise<void> = Promise.resolve();
  const flush = async () => {
    if (firstLine === 0) return;
    const batch = {
      pending,
      refused: refusedHere,
      firstLine,
      lastLine: lineNo,
      digest: auditDigest(digest.digest("hex")),
    };
    pending = [];
    refusedHere = [];
    firstLine = 0;
    digest = createHash("sha256");
    await inflight;
    inflight = write(batch);
    inflight.catch(() => undefined); // rethrown where it is awaited next
  };
  try {
    for await (const raw of createInterface({ input, crlfDelay: Infinity })) {
      lineNo++;
      const line = raw.trim();
      if (lineNo === 1 && format === "csv") {
        const wrong = checkCsvHeader(line);
        if (wrong) throw new ImportRefused(`Line 1: ${wrong}.`);
        continue;
      }
      if (line === "") continue;
      if (lineNo <= skipThrough) {
        summary.skipped++;
        continue;
      }
      summary.read++;
      if (firstLine === 0) firstLine = lineNo;
      digest.update(`${lineNo}\t${line}\n`);
      const parsed = parseLine(format, lineNo, line);
      if ("outcome" in parsed) refusedHere.push(parsed);
      else pending.push(parsed);
      if (pending.length + refusedHere.length >= batchLines) await flush();
      if (opts.onProgress && Date.now() - lastProgress >= every) {
        lastProgress = Date.now();
        opts.onProgress({ ...summary, bytes, totalBytes });
      }
    }
    await flush();
    await inflight;
  } finally {
    input.destroy();
    await inflight.catch(() => undefined); // never return with a batch still writing
  }
  return summary;
}

/** The last line of this import's last committed batch, as its audit events say (0: none). */
async function lastCommittedLine(tenantId: string, importId: string): Promise<number> {
  const { rows } = await sql<{ last: number | null }>`
    SELECT max((data->>'lastLine')::int) AS last FROM "AuditEvent"
     WHERE "tenantId" = ${tenantId}::uuid AND action = 'orders:batch' AND data->>'importId' = ${importId}`.execute(
    sqlPool(),
  );
  return rows[0]?.last ?? 0;
}

function lineOutcomeOf(line: number, r: BatchResult): LineOutcome {
  return r.outcome === "refused"
    ? { line, number: r.number, outcome: "refused", code: r.code, message: r.message, problems: r.problems }
    : { line, number: r.number, outcome: r.outcome };
}

/** A line through the file format and the Orders API's schema: the order, or its refusal. */
function parseLine(format: ImportFormat, line: number, text: string): Pending | LineOutcome {
  const parsed = parseImportLine(format, text);
  if (!parsed.ok) {
    const { path, expected, message } = parsed;
    return {
      line,
      number: null,
      outcome: "refused",
      code: "invalid_arguments",
      message: "The line cannot be read.",
      problems: [{ path, expected, message }],
    };
  }
  try {
    const { number, ...body } = parseInput(orderImportLine, parsed.value, "The order is not valid.");
    return { line, number, body };
  } catch (error) {
    if (!isAppError(error)) throw error;
    return {
      line,
      number: numberOf(parsed.value),
      outcome: "refused",
      code: error.code,
      message: error.message,
      problems: (error.details?.problems ?? []) as InputProblem[],
    };
  }
}

const numberOf = (v: unknown): string | null =>
  v && typeof v === "object" && typeof (v as { number?: unknown }).number === "string"
    ? (v as { number: string }).number
    : null;

/** The whole import cannot start or go on (unknown tenant, wrong CSV header, a state file of another run). */
export class ImportRefused extends Error {}
