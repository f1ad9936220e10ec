// The audit search lives in the URL (nuqs): every filter and the viewer's time zone survive reload and can
// be shared (a shared link keeps meaning the same instants: its `tz` travels with it). The same parsers are
// read by the server page (to seed the first paint) and the client search.
import { createLoader, createParser, parseAsString } from "nuqs/server";
import { auditFilterKeys } from "@/lib/domain/audit-filters";
import { canonicalTimeZone } from "@/lib/domain/local-time";
import type { AuditFilters } from "@/lib/queries/audit";

/** An IANA zone Intl knows; anything else reads as absent (the browser's zone is used instead). */
export const parseAsTimeZone = createParser({ parse: (v) => canonicalTimeZone(v), serialize: (v: string) => v });

export const auditParams = {
  traceId: parseAsString,
  from: parseAsString,
  to: parseAsString,
  tz: parseAsTimeZone,
  actor: parseAsString,
  action: parseAsString,
  outcome: parseAsString,
  proposalId: parseAsString,
  subject: parseAsString,
};
export type AuditParams = { [K in keyof typeof auditParams]: string | null };

export const loadAuditParams = createLoader(auditParams);

/**
 * The search a set of params stands for: the non-empty filters, and the zone only when a date bound needs
 * it (so the default view and non-date searches share one cache entry whatever the zone).
 */
export function auditFiltersOf(p: AuditParams, zone: string): AuditFilters {
  const f: AuditFilters = {};
  for (const k of auditFilterKeys) {
    const v = p[k]?.trim();
    if (v) f[k] = v;
  }
  if (f.from || f.to) f.tz = zone;
  return f;
}
