// The lines of an `orders:import` file (docs/systems-of-record.md) turned into the Orders API's body, so the one
// schema (lib/schemas/orders-api.ts, orderImportLine) and the one upsert judge them. Pure: no database here.

/** The CSV header, in this order: one order with exactly one payment per row (no items, no refunds). */
export const orderCsvHeader = [
  "number",
  "customer_id",
  "customer_email",
  "customer_name",
  "currency",
  "total_minor",
  "status",
  "placed_at",
  "payment_provider",
  "payment_reference",
  "payment_method",
  "captured_minor",
  "payment_holder",
  "payment_display",
] as const;

export type ImportFormat = "ndjson" | "csv";

export const formatOf = (file: string): ImportFormat => (file.toLowerCase().endsWith(".csv") ? "csv" : "ndjson");

/**
 * One CSV record (RFC 4180 quoting: `"a, b"` and `""` inside quotes) on one physical line. A quoted field that
 * runs over the line end is refused (null) rather than guessed at.
 */
export function splitCsvLine(line: string): string[] | null {
  const out: string[] = [];
  let field = "";
  let quoted = false;
  let i = 0;
  for (; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === "") quoted = true;
    else if (c === ",") {
      out.push(field);
      field = "";
    } else field += c;
  }
  if (quoted) return null;
  out.push(field);
  return out;
}

/** Whole non-negative numbers become numbers; anything else stays text for the schema to refuse with its path. */
const numeric = (v: string): number | string => (/^\d{1,16}$/.test(v) ? Number(v) : v);

export type ParsedLine = { ok: true; value: unknown } | { ok: false; path: string; expected: string; message: string };

/** The CSV header line, checked once: exactly orderCsvHeader (a reordered or missing column is refused). */
export function checkCsvHeader(line: string): string | null {
  const cols = splitCsvLine(line.replace(/^\uFEFF/, "").trim());
  if (cols && cols.length === orderCsvHeader.length && cols.every((c, i) => c.trim() === orderCsvHeader[i]))
    return null;
  return `the CSV header must be exactly: ${orderCsvHeader.join(",")}`;
}

/** One data line as the Orders API body plus `number`, or the reason it cannot even be read. */
export function parseImportLine(format: ImportFormat, line: string): ParsedLine {
  if (format === "ndjson") {
    try {
      return { ok: true, value: JSON.parse(line) as unknown };
    } catch {
      return { ok: false, path: "$", expected: "one JSON object on the line", message: "not JSON" };
    }
  }
  const cols = splitCsvLine(line);
  if (!cols)
    return { ok: false, path: "$", expected: "quotes closed on the same line", message: "unterminated quoted field" };
  if (cols.length !== orderCsvHeader.length)
    return { ok: false, path: "$", expected: `${orderCsvHeader.length} columns`, message: `${cols.length} columns` };
  const v = Object.fromEntries(orderCsvHeader.map((h, i) => [h, cols[i]!])) as Record<
    (typeof orderCsvHeader)[number],
    string
  >;
  return {
    ok: true,
    value: {
      number: v.number,
      customer: { id: v.customer_id, email: v.customer_email, name: v.customer_name },
      currency: v.currency,
      total_minor: numeric(v.total_minor),
      status: v.status,
      placed_at: v.placed_at,
      payments: [
        {
          provider: v.payment_provider,
          reference: v.payment_reference,
          method: v.payment_method,
          captured_minor: numeric(v.captured_minor),
          holder: v.payment_holder,
          display: v.payment_display,
        },
      ],
    },
  };
}
