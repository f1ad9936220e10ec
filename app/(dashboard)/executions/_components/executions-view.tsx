"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useQueryStates } from "nuqs";
import { useTranslations } from "next-intl";
import { executionOverviewQuery, executionsQuery, normalizeExecutionFilters } from "@/lib/queries/executions";
import { LiveStatus } from "@/components/domain/live-status";
import { useStreamOpen } from "@/components/realtime/use-change-stream";
import { useLiveInvalidation } from "@/components/realtime/use-live-invalidation";
import { LazyToaster } from "@/components/ui/toast";
import { CardSection } from "@/components/page/section";
import { InDoubtChart } from "./in-doubt-chart";
import { ExecutionCounters } from "./execution-counters";
import { ExecutionList } from "./execution-list";
import { InDoubtQueue } from "./in-doubt-queue";
import { ToPayOut } from "./to-pay-out";
import { executionsParams } from "./executions-params";

/** The ops page: counters, the in-doubt queue, the in-doubt chart and the list, kept live by push and poll. */
export function ExecutionsView({ canReconcile }: { canReconcile: boolean }) {
  const t = useTranslations("executions");
  const overview = useQuery(executionOverviewQuery());
  const o = overview.data;
  const [params] = useQueryStates(executionsParams);
  const list = useInfiniteQuery(executionsQuery(normalizeExecutionFilters(params)));
  const failing = overview.isRefetchError || overview.failureCount > 0 || list.isRefetchError || list.failureCount > 0;
  const pushed = useStreamOpen();
  useLiveInvalidation();

  return (
    <div className="grid min-w-0 gap-6">
      <LazyToaster richColors closeButton position="bottom-right" />
      <section aria-labelledby="exec-counts-title" className="grid gap-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="exec-counts-title" className="m-0 text-lg font-semibold">
            {t("countsTitle")}
          </h2>
          <LiveStatus
            updatedAt={Math.max(overview.dataUpdatedAt, list.dataUpdatedAt)}
            failing={failing}
            pushed={pushed}
          />
        </div>
        {o ? <ExecutionCounters o={o} /> : null}
      </section>

      <CardSection titleId="exec-doubt-title" title={t("inDoubtTitle")}>
        <p className="mt-1 mb-3 text-sm text-muted-foreground">{t("inDoubtHelp")}</p>
        {!o || o.inDoubt.length === 0 ? (
          <p className="m-0">{t("inDoubtEmpty")}</p>
        ) : (
          <InDoubtQueue rows={o.inDoubt} canReconcile={canReconcile} />
        )}
      </CardSection>

      {o && o.toPayOut.length > 0 ? (
        <CardSection titleId="exec-payout-title" title={t("payout.listTitle")}>
          <p className="mt-1 mb-3 text-sm text-muted-foreground">{t("payout.listHelp")}</p>
          <ToPayOut rows={o.toPayOut} />
        </CardSection>
      ) : null}

      <CardSection titleId="exec-chart-title" title={t("chartTitle")} headingClassName="mb-3">
        {o ? <InDoubtChart points={o.chart} /> : null}
      </CardSection>

      <ExecutionList list={list} />
    </div>
  );
}
