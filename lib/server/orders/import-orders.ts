import "server-only";
import { randomUUID } from "node:crypto";
import { createReadStream, existsSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { checkCsvHeader, formatOf, parseImportLine, type ImportFormat } from "@/lib/domain/order-import-file";
import { isAppError } from "@/lib/domain/outcome";
import { parseInput, type InputProblem } from "@/lib/domain/validation";
import { orderImportLine } from "@/lib/schemas/orders-api";
import { db } from "@/lib/server/db/client";
import { upsertOrder, type OrderWriter } from "@/lib/server/orders/upsert-order";

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
};

/** The state file: which file, for which tenant, up to which line everything has been applied (or refused). */
type ImportState = { tenant: string; size: number; doneThrough: number };
export const stateFileOf = (file: string) => `${file}.import-state.json`;

/**
 * `npm run orders:import -- --tenant SLUG FILE` (docs/systems-of-record.md): each line through the same schema
 * (`orderImportLine`, the Orders API body plus `number`) and the same upsert as `PUT /api/v1/orders/{number}`,
 * one transaction per line, audited with the operator as actor. A refused line does not stop the others.
 * Resumable: after every line the state file records the last line done; `resume` skips through it. A crash
 * between a line's commit and the state write re-applies that one line, which the upsert answers `unchanged`.
 */
export async function importOrders(opts: ImportOptions): Promise<ImportSummary> {
  const tenant = await db().tenant.findUnique({ where: { slug: opts.tenantSlug }, select: { id: true } });
  if (!tenant) throw new ImportRefused(`No tenant with the slug "${opts.tenantSlug}".`);
  const totalBytes = statSync(opts.file).size;
  const stateFile = stateFileOf(opts.file);
  let skipThrough = 0;
  if (opts.resume && existsSync(stateFile)) {
    const state = JSON.parse(readFileSync(stateFile, "utf8")) as ImportState;
    if (state.tenant !== opts.tenantSlug)
      throw new ImportRefused(
        `The state file ${stateFile} belongs to tenant "${state.tenant}", not "${opts.tenantSlug}".`,
      );
    if (state.size > totalBytes)
      throw new ImportRefused(`The file is shorter than when ${stateFile} was written; it is not the same file.`);
    skipThrough = state.doneThrough;
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
      JSON.stringify({ tenant: opts.tenantSlug, size: totalBytes, doneThrough } satisfies ImportState),
    );
    renameSync(`${stateFile}.tmp`, stateFile);
  };

  const input = createReadStream(opts.file, { encoding: "utf8" });
  let bytes = 0;
  input.on("data", (chunk) => (bytes += Buffer.byteLength(chunk as string)));
  const every = opts.progressEveryMs ?? 2000;
  let lastProgress = Date.now();
  let lineNo = 0;
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
      const result = await importLine(writer, format, lineNo, line);
      if (result.outcome === "refused") summary.refused.push(lineNo);
      else summary[result.outcome]++;
      opts.onLine?.(result);
      saveState(lineNo);
      if (opts.onProgress && Date.now() - lastProgress >= every) {
        lastProgress = Date.now();
        opts.onProgress({ ...summary, bytes, totalBytes });
      }
    }
  } finally {
    input.destroy();
  }
  return summary;
}

async function importLine(writer: OrderWriter, format: ImportFormat, line: number, text: string): Promise<LineOutcome> {
  const parsed = parseImportLine(format, text);
  const guessNumber = parsed.ok ? numberOf(parsed.value) : null;
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
    const r = await upsertOrder(writer, number, body, `import-${randomUUID()}`);
    return { line, number, outcome: r.created ? "created" : r.changed ? "updated" : "unchanged" };
  } catch (error) {
    if (!isAppError(error)) throw error; // the database gone: stop, the state file says where to resume
    return {
      line,
      number: guessNumber,
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
