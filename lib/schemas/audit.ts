import { z } from "zod";

const optionalText = (max: number) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : typeof v === "string" ? v.trim() : v), z.string().max(max).optional());
const optionalDate = z.preprocess((v) => (v === "" || v == null ? undefined : v), z.coerce.date().optional());

/** Audit search filters: shared by the search form, the JSON route, the export route and the use case. */
export const auditSearchInput = z.object({
  traceId: optionalText(128),
  from: optionalDate,
  to: optionalDate,
  /** A staff user id, an agent key id, a system actor name or a staff email. */
  actor: optionalText(200),
  /** Exact action / tool ("tool:prepare_refund", "proposal:approve", …). */
  action: optionalText(128),
  outcome: optionalText(64),
  proposalId: z.preprocess((v) => (v === "" ? undefined : v), z.uuid().optional()),
  /** Personal value (email, IBAN, card number…) matched by its keyed fingerprint; never stored. */
  subject: optionalText(200),
  /** Keyset cursor: the write position (`pos`) of the last event of the previous page (newest first). */
  cursor: z.preprocess((v) => (v === "" || v == null ? undefined : v), z.coerce.number().int().positive().optional()),
  limit: z.preprocess((v) => (v === "" || v == null ? undefined : v), z.coerce.number().int().min(1).max(200).default(50)),
});
export type AuditSearchInput = z.input<typeof auditSearchInput>;
export type AuditSearchFilters = z.output<typeof auditSearchInput>;

export const auditFilterKeys = ["traceId", "from", "to", "actor", "action", "outcome", "proposalId", "subject"] as const;

/** The search params of a request (URLSearchParams or a Next.js searchParams object) as raw input. */
export function auditSearchParams(params: URLSearchParams | Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of [...auditFilterKeys, "cursor", "limit"]) {
    const v = params instanceof URLSearchParams ? params.get(key) : params[key];
    const s = Array.isArray(v) ? v[0] : v;
    if (typeof s === "string" && s !== "") out[key] = s;
  }
  return out;
}
