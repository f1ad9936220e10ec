"use client";

import { useRouter } from "next/navigation";
import { useEffect, useMemo, useState, useSyncExternalStore, type FormEvent } from "react";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useQueryStates } from "nuqs";
import { canonicalTimeZone, wallClockOf } from "@/lib/domain/local-time";
import { auditSearchQuery } from "@/lib/queries/audit";
import { auditFilterKeys } from "@/lib/domain/audit-filters";
import { auditFiltersOf, auditParams, type AuditParams } from "./audit-params";

const noSubscribe = () => () => {};
/** The browser's IANA zone (null while rendering on the server: no zone is guessed there). */
function useBrowserZone(): string | null {
  return useSyncExternalStore(
    noSubscribe,
    () => canonicalTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone) ?? "UTC",
    () => null,
  );
}

type FilterField = (typeof auditFilterKeys)[number];

/**
 * The audit search's state: the applied filters in the URL (audit-params.ts), the form's draft, the zone
 * dates are read in, and the paged results.
 */
export function useAuditSearch() {
  const router = useRouter();
  const [params, setParams] = useQueryStates(auditParams);
  const browserZone = useBrowserZone();
  const zone = params.tz ?? browserZone ?? "UTC";
  const filters = auditFiltersOf(params, zone);
  const active = auditFilterKeys.some((k) => !!params[k]);

  // The zone travels in the URL, so a reload or a shared link reads the same dates the same way.
  useEffect(() => {
    if (!params.tz && browserZone) void setParams({ tz: browserZone }, { history: "replace" });
  }, [params.tz, browserZone, setParams]);

  const [draft, setDraft] = useState<AuditParams>(params);
  // The form follows the URL when it changes from outside (back / forward, "Clear").
  const urlKey = auditFilterKeys.map((k) => params[k] ?? "").join("\u0000");
  const [seenKey, setSeenKey] = useState(urlKey);
  if (seenKey !== urlKey) {
    setSeenKey(urlKey);
    setDraft(params);
  }

  const search = useInfiniteQuery(auditSearchQuery(filters));
  const events = useMemo(() => search.data?.pages.flatMap((p) => p.events) ?? [], [search.data]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const next = Object.fromEntries(auditFilterKeys.map((k) => [k, draft[k]?.trim() || null])) as Record<
      FilterField,
      string | null
    >;
    // A bare trace id is the trace page (what the proposal page's trace link opens too).
    if (next.traceId && auditFilterKeys.every((k) => k === "traceId" || !next[k])) {
      router.push(`/audit/traces/${encodeURIComponent(next.traceId)}`);
      return;
    }
    void setParams({ ...next, tz: zone });
  };
  const clear = () => void setParams(Object.fromEntries(auditFilterKeys.map((k) => [k, null])));
  // Quick ranges, in the zone the dates are read in: they fill the fields; Search applies them.
  const preset = (range: "hour" | "today" | "week") => {
    const now = new Date();
    const today = `${wallClockOf(now, zone).slice(0, 10)}T00:00`;
    const from =
      range === "hour"
        ? wallClockOf(new Date(now.getTime() - 3_600_000), zone)
        : range === "today"
          ? today
          : wallClockOf(new Date(now.getTime() - 7 * 86_400_000), zone);
    setDraft({ ...draft, from, to: "" });
  };
  // A link may name another zone than the viewer's: the form says so and offers the viewer's own.
  const foreignZone = params.tz && browserZone && params.tz !== browserZone ? browserZone : null;
  const switchToMyZone = () => void setParams({ tz: browserZone });

  return { zone, foreignZone, switchToMyZone, filters, active, draft, setDraft, submit, clear, preset, search, events };
}

export type AuditSearchState = ReturnType<typeof useAuditSearch>;
