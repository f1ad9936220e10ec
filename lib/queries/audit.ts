// The audit search resource (same pattern as proposals.ts): key + fetcher shared by the server prefetch
// and the client hook. Every fetch is an audited search, so results are never refetched in the background.
import { infiniteQueryOptions } from "@tanstack/react-query";
import { api } from "./api";

// The schema (and zod) load with the first search in the browser, not with the page: the first page of
// results is rendered from the server's prefetch (the /audit JavaScript budget, bench:ui).
const auditSearchPageDto = () => import("@/lib/schemas/audit-dto").then((m) => m.auditSearchPageDto);

/** The filters as the URL carries them (strings). */
export type AuditFilters = Partial<
  Record<"traceId" | "from" | "to" | "tz" | "actor" | "action" | "outcome" | "proposalId" | "subject", string>
>;

export const auditKeys = {
  all: ["audit"] as const,
  search: (f: AuditFilters) => ["audit", "search", f] as const,
};

export function auditQueryString(f: AuditFilters, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams(
    Object.entries({ ...f, ...extra }).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ""),
  );
  return params.toString();
}

export const auditSearchQuery = (f: AuditFilters) =>
  infiniteQueryOptions({
    queryKey: auditKeys.search(f),
    queryFn: ({ pageParam }) =>
      api(`/api/audit/events?${auditQueryString(f, pageParam ? { cursor: pageParam } : {})}`, auditSearchPageDto),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnMount: false,
  });
