"use client";

import { useMemo } from "react";
import { useTranslations } from "next-intl";
import { auditQueryString } from "@/lib/queries/audit";
import type { AuditEventViewDto } from "@/lib/schemas/audit-dto";
import { Button, buttonVariants } from "@/components/ui/button";
import { DataTable, DataTableEmpty, type Column } from "@/components/ui/data-table";
import { Skeleton } from "@/components/ui/skeleton";
import { AuditActor, AuditOutcome, AuditTime, TraceLink, type AuditLabels } from "./audit-cells";
import type { AuditSearchState } from "./use-audit-search";
import { ClientButton } from "@/components/ui/client-button";

type Props = { state: AuditSearchState; labels: AuditLabels };

function useAuditColumns(labels: AuditLabels, zone: string) {
  const t = useTranslations("audit");
  return useMemo<Column<AuditEventViewDto>[]>(
    () => [
      { id: "time", header: t("colTime"), cell: (e) => <AuditTime value={e.occurredAt} zone={zone} /> },
      { id: "actor", header: t("colActor"), cell: (e) => <AuditActor e={e} labels={labels} /> },
      {
        id: "action",
        header: t("colAction"),
        cell: (e) => (
          <span title={e.action} data-action={e.action}>
            {labels.action(e.action)}
          </span>
        ),
      },
      { id: "outcome", header: t("colOutcome"), cell: (e) => <AuditOutcome code={e.outcome} labels={labels} /> },
      { id: "trace", header: t("colTrace"), cell: (e) => <TraceLink traceId={e.traceId} /> },
      {
        id: "proposal",
        header: t("colProposal"),
        cell: (e) =>
          e.proposalId ? (
            <span className="font-mono text-xs" title={e.proposalId}>
              {e.proposalId.slice(0, 8)}…
            </span>
          ) : (
            "—"
          ),
      },
      {
        id: "leaf",
        header: t("colSeq"),
        cell: (e) =>
          e.leafIndex ?? (
            <span title={t("pendingHint")} className="text-muted-foreground">
              {t("pending")}
            </span>
          ),
      },
    ],
    [t, labels, zone],
  );
}

/** The results: exports, then an error, loading, empty or table state (cards on phones), then "load more". */
export function AuditResults({ state, labels }: Props) {
  const t = useTranslations("audit");
  const { search, events, filters, active, zone } = state;
  const columns = useAuditColumns(labels, zone);
  const exportHref = (format: "csv" | "json") => `/api/audit/export?${auditQueryString(filters, { format })}`;

  return (
    <section aria-labelledby="audit-results-title" className="grid gap-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="audit-results-title" className="m-0 text-lg font-semibold">
          {active ? t("results") : t("recent")}
        </h2>
        <p className="m-0 text-sm">
          <a href={exportHref("csv")} download className="underline">
            {t("exportCsv")}
          </a>{" "}
          ·{" "}
          <a href={exportHref("json")} download className="underline">
            {t("exportJson")}
          </a>
        </p>
      </div>
      {active ? null : <p className="m-0 text-sm text-muted-foreground">{t("recentHint")}</p>}
      {search.isError ? (
        <div role="alert" data-audit-state="error" className="rounded-xl border border-destructive/40 bg-card p-4">
          <p className="m-0">{t("error", { message: search.error.message })}</p>
          <Button variant="outline" size="sm" className="mt-2" onClick={() => void search.refetch()}>
            {t("retry")}
          </Button>
        </div>
      ) : search.isPending ? (
        <div
          role="status"
          aria-busy="true"
          data-audit-state="loading"
          className="grid gap-2 rounded-xl border bg-card p-4"
        >
          <span className="sr-only">{t("loading")}</span>
          {Array.from({ length: 5 }, (_, i) => (
            <Skeleton key={i} className="h-10 w-full" />
          ))}
        </div>
      ) : (
        <DataTable
          label={t("results")}
          columns={columns}
          rows={events}
          rowAttributes={(e) => ({ "data-event-id": e.id, "data-action": e.action })}
          wrapperAttributes={{ "data-audit-state": "table" }}
          tableAttributes={{ "data-query": auditQueryString(filters) }}
          empty={<DataTableEmpty data-audit-state="empty">{t("empty")}</DataTableEmpty>}
          cardAttributes={(e) => ({ "data-event-card": e.id, "data-action": e.action })}
          card={(e) => (
            <>
              <div className="flex flex-wrap items-start justify-between gap-2">
                <strong title={e.action}>{labels.action(e.action)}</strong>
                <AuditOutcome code={e.outcome} labels={labels} />
              </div>
              <AuditTime value={e.occurredAt} zone={zone} />
              <AuditActor e={e} labels={labels} />
              <TraceLink traceId={e.traceId} />
            </>
          )}
        />
      )}
      {search.hasNextPage ? (
        <p className="m-0">
          <ClientButton
            type="button"
            className={buttonVariants({ variant: "outline" })}
            onClick={() => void search.fetchNextPage()}
            disabled={search.isFetchingNextPage}
          >
            {search.isFetchingNextPage ? t("loading") : t("loadMore")}
          </ClientButton>
        </p>
      ) : null}
    </section>
  );
}
