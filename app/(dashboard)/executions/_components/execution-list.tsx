"use client";

import { useMemo } from "react";
import type { InfiniteData, UseInfiniteQueryResult } from "@tanstack/react-query";
import { useQueryStates } from "nuqs";
import { useTranslations } from "next-intl";
import type { ExecutionRow, ExecutionsPage } from "@/lib/schemas/execution-dto";
import { RelativeTime } from "@/components/ui/date-time";
import { Button } from "@/components/ui/button";
import { DataTable, DataTableEmpty, type Column } from "@/components/ui/data-table";
import { Section } from "@/components/page/section";
import { ExecutionStateBadge } from "./execution-state-badge";
import { ExecutionFilters } from "./execution-filters";
import { ExecutionLink, ExecutionWhat, executionHeadClass, mono, referenceOf } from "./execution-cells";
import { FailureReason } from "./failure-reason";
import { executionsParams } from "./executions-params";

type ListQuery = UseInfiniteQueryResult<InfiniteData<ExecutionsPage>, Error>;

function useExecutionColumns() {
  const t = useTranslations("executions");
  return useMemo<Column<ExecutionRow>[]>(
    () => [
      {
        id: "order",
        header: t("order"),
        cell: (r) => <ExecutionLink id={r.id} order={r.orderNumber} className="font-medium whitespace-nowrap" />,
      },
      { id: "amount", header: t("amountOrAction"), cell: (r) => <ExecutionWhat r={r} exact /> },
      {
        id: "state",
        header: t("state"),
        cell: (r) => (
          <>
            <ExecutionStateBadge state={r.status} />
            {r.failureReason ? (
              <FailureReason reason={r.failureReason} className="block text-xs text-muted-foreground" />
            ) : null}
          </>
        ),
      },
      { id: "attempts", header: t("attempts"), cell: (r) => r.attempts },
      { id: "reconciliations", header: t("reconciliations"), cell: (r) => r.reconciliations },
      {
        id: "providerRefundId",
        header: t("reference"),
        cell: (r) => <span className={mono}>{referenceOf(r) ?? "—"}</span>,
      },
      {
        id: "idempotencyKey",
        header: t("idempotencyKey"),
        cell: (r) => <span className={mono}>{r.idempotencyKey}</span>,
      },
      {
        id: "age",
        header: t("age"),
        cell: (r) => (
          <>
            <RelativeTime value={r.createdAt} />
            {r.settledAt ? (
              <span className="block text-xs text-muted-foreground">
                {t("settled")} <RelativeTime value={r.settledAt} />
              </span>
            ) : null}
          </>
        ),
      },
      { id: "lastError", header: t("lastError"), cell: (r) => <span className={mono}>{r.lastError ?? "—"}</span> },
    ],
    [t],
  );
}

/** Every execution, searchable and sortable: a table on wide screens, a card per execution on phones. */
export function ExecutionList({ list }: { list: ListQuery }) {
  const t = useTranslations("executions");
  const [params] = useQueryStates(executionsParams);
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.rows) ?? [], [list.data]);
  const filtered = !!(params.state || params.q);
  const columns = useExecutionColumns();

  return (
    <Section
      titleId="exec-list-title"
      title={t("listTitle")}
      headingClassName="m-0 text-lg font-semibold"
      className="grid min-w-0 gap-3"
    >
      <ExecutionFilters />
      {list.isError && !list.data ? (
        <div role="alert" className="rounded-xl border border-destructive/40 bg-card p-4 text-sm">
          {list.error.message}
        </div>
      ) : (
        <DataTable
          label={t("listTitle")}
          columns={columns}
          rows={rows}
          rowAttributes={(r) => ({ "data-execution-id": r.id, "data-proposal-id": r.proposalId })}
          rowClassName="focus-within:bg-accent"
          headClassName={executionHeadClass}
          empty={<DataTableEmpty data-list-state="empty">{filtered ? t("emptyFiltered") : t("empty")}</DataTableEmpty>}
          cardAttributes={(r) => ({ "data-execution-card": r.id, "data-proposal-id": r.proposalId })}
          // Phones: the whole card is the link target.
          cardClassName="relative text-base focus-within:ring-2 focus-within:ring-ring"
          card={(r) => (
            <>
              <div className="flex items-start justify-between gap-3">
                <ExecutionLink
                  id={r.id}
                  order={r.orderNumber}
                  className="font-semibold after:absolute after:inset-0 focus-visible:outline-none"
                />
                <span className="text-right font-semibold">
                  <ExecutionWhat r={r} />
                </span>
              </div>
              <div className="flex flex-wrap items-center gap-2 text-sm">
                <ExecutionStateBadge state={r.status} />
                <RelativeTime value={r.createdAt} />
              </div>
              {referenceOf(r) ? <p className={`m-0 text-muted-foreground ${mono}`}>{referenceOf(r)}</p> : null}
              {r.lastError ? <p className={`m-0 text-muted-foreground ${mono}`}>{r.lastError}</p> : null}
            </>
          )}
        />
      )}
      {list.hasNextPage ? (
        <p className="m-0">
          <Button variant="outline" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
            {t("loadMore")}
          </Button>
        </p>
      ) : null}
    </Section>
  );
}
