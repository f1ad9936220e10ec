import "server-only";
import { createHash, randomUUID } from "node:crypto";
import { createReadStream, existsSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { performance } from "node:perf_hooks";
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
  /** Called before a batch is written, with its first line (tests: hold one batch back to let others overtake it). */
  beforeWrite?: (firstLine: number) => void | Promise<void>;
  /** Batches written at once, each on its own connection (default DEFAULT_PARALLEL). */
  parallel?: number;
  /** Milliseconds per phase, added to (bench:import --phases): read+check, wait, and upsertOrderBatch's phases. */
  phases?: Record<string, number>;
};

/**
 * The state file: which file, for which tenant, up to which line everything has been applied (or refused), and
 * the import's id, which every batch's audit event carries — so a resume also finds a batch that committed just
 * before a stop that came before its state write.
 */
type ImportState = {
  tenant: string;
  size: number;
  /** Every line up to here is committed (or refused). */
  doneThrough: number;
  importId?: string;
  /** Batches committed after doneThrough (parallel batches finish out of order): their line ranges. */
  committed?: [number, number][];
};
export const stateFileOf = (file: string) => `${file}.import-state.json`;

/** Lines per batch (one transaction, one audit event); `ORDERS_IMPORT_BATCH` or the option overrides it. */
export const DEFAULT_BATCH_LINES = 1000;

/** Batches in flight at once: two (one connection each) on a machine with two cores or more. */
export const DEFAULT_PARALLEL = Math.max(1, Math.min(2, availableParallelism()));

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
  // Line ranges committed beyond skipThrough, sorted (a resume of a parallel import): skipped too.
  let skipRanges: [number, number][] = [];
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
    skipRanges = state.committed ?? [];
    if (state.importId) {
      importId = state.importId;
      // A batch that committed before a stop that came before its state write: the audit log names it.
      skipRanges = [...skipRanges, ...(await committedRanges(tenant.id, importId))];
    }
    skipRanges.sort((a, b) => a[0] - b[0]);
  }
  let nextRange = 0;
  const skipped = (line: number) => {
    if (line <= skipThrough) return true;
    while (nextRange < skipRanges.length && skipRanges[nextRange]![1] < line) nextRange++;
    const r = skipRanges[nextRange];
    return r !== undefined && r[0] <= line;
  };
  const writer: OrderWriter = {
    tenantId: tenant.id,
    actorId: "operator",
    authMethod: "operator_cli",
    source: "orders_import",
  };
  const format = formatOf(opts.file);
  const summary: ImportSummary = { format, read: 0, skipped: 0, created: 0, updated: 0, unchanged: 0, refused: [] };
  const saveState = (doneThrough: number, committed: [number, number][] = []) => {
    const state: ImportState = { tenant: opts.tenantSlug, size: totalBytes, doneThrough, importId };
    if (committed.length > 0) state.committed = committed;
    writeFileSync(`${stateFile}.tmp`, JSON.stringify(state));
    renameSync(`${stateFile}.tmp`, stateFile);
  };
  saveState(skipThrough, skipRanges); // the import's id on disk before its first batch commits
  const batchLines = opts.batchLines ?? (Number(process.env.ORDERS_IMPORT_BATCH) || DEFAULT_BATCH_LINES);
  const parallel = Math.max(1, opts.parallel ?? DEFAULT_PARALLEL);
  const phases = opts.phases;
  const addPhase = (phase: string, ms: number) => {
    if (phases) phases[phase] = (phases[phase] ?? 0) + ms;
  };

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
  type Gathered = {
    pending: Pending[];
    refused: LineOutcome[];
    firstLine: number;
    lastLine: number;
    digest: string;
    /** What makes two batches' order matter: order numbers, customers, payment and refund references. */
    keys: Set<string>;
  };
  /** A batch dispatched: committed (`outcomes` set) or still writing (`settled` resolves either way). */
  type Lane = { batch: Gathered; settled: Promise<void>; outcomes?: LineOutcome[] };
  // Batches in dispatch (= file) order; the run of committed ones from the start leaves once emitted (settle).
  const lanes: Lane[] = [];
  let failure: { error: unknown } | null = null;
  let skipState = skipRanges; // committed ranges beyond the watermark, as the state file says
  let emitted: Promise<void> = Promise.resolve(); // the outcomes emitted so far (settle)

  const write = async (batch: Gathered): Promise<LineOutcome[]> => {
    const outcomes = [...batch.refused];
    await opts.beforeWrite?.(batch.firstLine);
    if (batch.pending.length > 0) {
      const report = await upsertOrderBatch(writer, batch.pending, `import-${randomUUID()}`, {
        timeoutMs: 120_000,
        audit: { importId, firstLine: batch.firstLine, lastLine: batch.lastLine, digest: batch.digest },
        ...(phases ? { phases } : {}),
      });
      report.results.forEach((r, k) => outcomes.push(lineOutcomeOf(batch.pending[k]!.line, r)));
    }
    return outcomes.sort((x, y) => x.line - y.line);
  };
  /**
   * After a commit: the state file (the watermark — the last line of the longest run of committed batches from
   * the start — and the ranges committed beyond it), then the outcomes of that run, in line order.
   */
  const settle = async () => {
    let head = 0;
    while (head < lanes.length && lanes[head]!.outcomes) head++;
    const done = lanes.slice(0, head);
    const watermark = done.at(-1)?.batch.lastLine ?? null;
    const beyond = lanes
      .slice(head)
      .filter((l) => l.outcomes)
      .map((l): [number, number] => [l.batch.firstLine, l.batch.lastLine]);
    if (watermark !== null) {
      skipThrough = Math.max(skipThrough, watermark);
      skipState = skipState.filter((r) => r[1] > skipThrough);
    }
    saveState(
      skipThrough,
      [...skipState, ...beyond].sort((a, b) => a[0] - b[0]),
    );
    lanes.splice(0, head);
    // One emission after the other: a later commit's outcomes never overtake an earlier one's (afterBatch awaits).
    const emit = emitted.then(async () => {
      for (const lane of done) {
        for (const o of lane.outcomes!) {
          if (o.outcome === "refused") summary.refused.push(o.line);
          else summary[o.outcome]++;
          opts.onLine?.(o);
        }
        await opts.afterBatch?.(lane.batch.lastLine);
      }
    });
    emitted = emit;
    await emit;
  };
  const stopOnFailure = () => {
    if (failure) throw failure.error;
  };
  // Batches go on up to `parallel` connections while the next is read and checked. A batch that shares an order
  // number (or a customer, a payment or refund reference) with one in flight waits for it: what the file says
  // twice is applied in file order, whatever the parallelism. Outcomes and the state file follow file order.
  const dispatch = async (batch: Gathered) => {
    const t = performance.now();
    for (;;) {
      stopOnFailure();
      const writing = lanes.filter((l) => !l.outcomes);
      const blocking = writing.filter((l) => [...batch.keys].some((k) => l.batch.keys.has(k)));
      if (writing.length < parallel && blocking.length === 0) break;
      await Promise.race((blocking.length > 0 ? blocking : writing).map((l) => l.settled));
    }
    addPhase("wait", performance.now() - t);
    const lane: Lane = { batch, settled: Promise.resolve() };
    lane.settled = write(batch).then(
      async (outcomes) => {
        lane.outcomes = outcomes;
        await settle();
      },
      (error: unknown) => {
        failure ??= { error };
      },
    );
    lanes.push(lane);
  };
  const flush = async () => {
    if (firstLine === 0) return;
    const keys = new Set<string>();
    for (const { number, body } of pending) {
      keys.add(`n ${number}`);
      keys.add(`c ${body.customer.id}`);
      for (const p of body.payments) keys.add(`p ${p.reference}`);
      for (const r of body.refunds) keys.add(`r ${r.reference}`);
    }
    const batch = {
      pending,
      refused: refusedHere,
      firstLine,
      lastLine: lastRead,
      digest: auditDigest(digest.digest("hex")),
      keys,
    };
    pending = [];
    refusedHere = [];
    firstLine = 0;
    digest = createHash("sha256");
    await dispatch(batch);
  };
  let lastRead = 0;
  let checkedAt = performance.now();
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
      if (skipped(lineNo)) {
        summary.skipped++;
        // A batch never spans a committed range: each batch's line range is exactly the lines it applied.
        if (firstLine !== 0) {
          addPhase("read", performance.now() - checkedAt);
          await flush();
          checkedAt = performance.now();
        }
        continue;
      }
      summary.read++;
      if (firstLine === 0) firstLine = lineNo;
      lastRead = lineNo;
      digest.update(`${lineNo}\t${line}\n`);
      const parsed = parseLine(format, lineNo, line);
      if ("outcome" in parsed) refusedHere.push(parsed);
      else pending.push(parsed);
      if (pending.length + refusedHere.length >= batchLines) {
        addPhase("read", performance.now() - checkedAt);
        await flush();
        checkedAt = performance.now();
      }
      if (opts.onProgress && Date.now() - lastProgress >= every) {
        lastProgress = Date.now();
        opts.onProgress({ ...summary, bytes, totalBytes });
      }
    }
    addPhase("read", performance.now() - checkedAt);
    await flush();
    const t = performance.now();
    // Only the batches still writing: a committed one waiting for an earlier one has already settled.
    for (let writing = lanes.filter((l) => !l.outcomes); writing.length > 0 && !failure;)
      writing = (await Promise.race(writing.map((l) => l.settled)), lanes.filter((l) => !l.outcomes));
    addPhase("wait", performance.now() - t);
    stopOnFailure();
  } finally {
    input.destroy();
    // Never return with a batch still writing.
    await Promise.all(lanes.map((l) => l.settled));
  }
  return summary;
}

/** The line ranges of this import's committed batches, as their audit events say. */
async function committedRanges(tenantId: string, importId: string): Promise<[number, number][]> {
  const { rows } = await sql<{ first: number; last: number }>`
    SELECT (data->>'firstLine')::int AS first, (data->>'lastLine')::int AS last FROM "AuditEvent"
     WHERE "tenantId" = ${tenantId}::uuid AND action = 'orders:batch' AND data->>'importId' = ${importId}`.execute(
    sqlPool(),
  );
  return rows.map((r) => [r.first, r.last]);
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
