import { z } from "zod";
import { isStorableInstant, storable } from "./stored";
import { auditFilterKeys } from "@/lib/domain/audit-filters";
import { canonicalTimeZone, instantOfWallClock, isWallClock } from "@/lib/domain/local-time";

const optionalText = (max: number) =>
  z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : typeof v === "string" ? v.trim() : v),
    storable(z.string().max(max)).optional(),
  );
/**
 * A range bound: a wall-clock time as a datetime-local field sends it ("2026-03-29T02:30"), read in the
 * search's `tz`; or an instant with its offset ("2026-03-29T00:30:00Z", "…+02:00") for API clients.
 */
const optionalBound = z.preprocess(
  (v) =>
    v === "" || v == null ? undefined : typeof v === "string" ? v.trim() : v instanceof Date ? v.toISOString() : v,
  z
    .string()
    .max(40)
    .refine((s) => isWallClock(s) || (/(Z|[+-]\d{2}:?\d{2})$/i.test(s) && !Number.isNaN(Date.parse(s))), {
      message: "Expected a local date and time (YYYY-MM-DDTHH:mm) or an ISO 8601 instant with its offset.",
    })
    .refine(isStorableInstant, { message: "Expected a date in the years 0001–9999." })
    .optional(),
);
/** An IANA time zone Intl knows (the browser's own, e.g. "Europe/Madrid"); UTC when absent. */
const timeZone = z.preprocess(
  (v) => (v === "" || v == null ? undefined : v),
  z
    .string()
    .max(64)
    .transform((s, ctx) => {
      const zone = canonicalTimeZone(s.trim());
      if (zone) return zone;
      ctx.addIssue({ code: "custom", message: "Expected an IANA time zone such as Europe/Madrid." });
      return z.NEVER;
    })
    .default("UTC"),
);

/** Audit search filters: shared by the search form, the JSON route, the export route and the use case. */
export const auditSearchInput = z
  .object({
    traceId: optionalText(128),
    /** Range start and end (both inclusive); a wall-clock end without seconds covers its whole minute. */
    from: optionalBound,
    to: optionalBound,
    /** The viewer's time zone: wall-clock `from` / `to` are read in it (DST-correct). */
    tz: timeZone,
    /** A staff user id, an agent key id, a system actor name or a staff email. */
    actor: optionalText(200),
    /** Exact action / tool ("tool:prepare_refund", "proposal:approve", … — lib/domain/audit-actions.ts). */
    action: optionalText(128),
    outcome: optionalText(64),
    proposalId: z.preprocess((v) => (v === "" ? undefined : v), z.uuid().optional()),
    /** Personal value (email, IBAN, card number…) matched by its keyed fingerprint; never stored. */
    subject: optionalText(200),
    /** Keyset cursor: the write position (`pos`) of the last event of the previous page (newest first). */
    cursor: z.preprocess((v) => (v === "" || v == null ? undefined : v), z.coerce.number().int().positive().optional()),
    limit: z.preprocess(
      (v) => (v === "" || v == null ? undefined : v),
      z.coerce.number().int().min(1).max(200).default(50),
    ),
  })
  .transform(({ from, to, ...rest }, ctx) => {
    const bound = (text: string | undefined, edge: "from" | "to"): Date | undefined => {
      if (text === undefined) return undefined;
      if (!isWallClock(text)) return new Date(text);
      const at = instantOfWallClock(text, rest.tz, edge === "from" ? "earliest" : "latest");
      if (!at) {
        ctx.addIssue({ code: "custom", path: [edge], message: "Not a date and time that exists." });
        return undefined;
      }
      // "to 10:15" (minute precision) includes everything shown as 10:15.
      return edge === "to" && text.length === 16 ? new Date(at.getTime() + 59_999) : at;
    };
    return { ...rest, from: bound(from, "from"), to: bound(to, "to") };
  });
export type AuditSearchInput = z.input<typeof auditSearchInput>;
export type AuditSearchFilters = z.output<typeof auditSearchInput>;

/** The search params of a request (URLSearchParams or a Next.js searchParams object) as raw input. */
export function auditSearchParams(
  params: URLSearchParams | Record<string, string | string[] | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of [...auditFilterKeys, "tz", "cursor", "limit"]) {
    const v = params instanceof URLSearchParams ? params.get(key) : params[key];
    const s = Array.isArray(v) ? v[0] : v;
    if (typeof s === "string" && s !== "") out[key] = s;
  }
  return out;
}
