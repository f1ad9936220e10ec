"use client";

import Link from "next/link";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { auditQueryString, auditSearchQuery, type AuditFilters } from "@/lib/queries/audit";
import { DateTime } from "@/components/ui/date-time";

export function AuditResults({ filters }: { filters: AuditFilters }) {
  const t = useTranslations("audit");
  const search = useInfiniteQuery(auditSearchQuery(filters));
  const events = search.data?.pages.flatMap((p) => p.events) ?? [];
  const qs = auditQueryString(filters);
  return (
    <section aria-labelledby="audit-results-title" className="stack">
      <h2 id="audit-results-title">{t("results")}</h2>
      <p>
        <a href={`/api/audit/export?${auditQueryString(filters, { format: "csv" })}`} download>
          {t("exportCsv")}
        </a>{" "}
        ·{" "}
        <a href={`/api/audit/export?${auditQueryString(filters, { format: "json" })}`} download>
          {t("exportJson")}
        </a>
      </p>
      {search.isError ? <p role="alert">{t("error", { message: search.error.message })}</p> : null}
      {search.isPending ? <p aria-live="polite">{t("loading")}</p> : null}
      {!search.isPending && events.length === 0 ? (
        <div className="panel">{t("empty")}</div>
      ) : (
        <table aria-label={t("results")} data-query={qs}>
          <thead>
            <tr>
              <th scope="col">{t("colSeq")}</th>
              <th scope="col">{t("colTime")}</th>
              <th scope="col">{t("colTrace")}</th>
              <th scope="col">{t("colActor")}</th>
              <th scope="col">{t("colAction")}</th>
              <th scope="col">{t("colOutcome")}</th>
              <th scope="col">{t("colProposal")}</th>
            </tr>
          </thead>
          <tbody>
            {events.map((e) => (
              <tr key={e.id} data-event-id={e.id}>
                <td className="mono">{e.leafIndex ?? <span title={t("pendingHint")}>{t("pending")}</span>}</td>
                <td>
                  <DateTime value={e.occurredAt} />
                </td>
                <td>
                  <Link href={`/audit/traces/${encodeURIComponent(e.traceId)}`} aria-label={t("openTrace", { traceId: e.traceId })} className="mono">
                    {e.traceId}
                  </Link>
                </td>
                <td>
                  {e.actorType}
                  {e.actorId ? <span className="mono muted"> {e.actorId}</span> : null}
                </td>
                <td className="mono">{e.action}</td>
                <td className="mono">{e.outcome}</td>
                <td className="mono">{e.proposalId ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {search.hasNextPage ? (
        <button type="button" onClick={() => void search.fetchNextPage()} disabled={search.isFetchingNextPage}>
          {search.isFetchingNextPage ? t("loading") : t("loadMore")}
        </button>
      ) : null}
    </section>
  );
}
