"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { ArrowLeft } from "lucide-react";
import { isExecutionSettled } from "@/lib/domain/execution-state";
import { executionDetailQuery } from "@/lib/queries/executions";
import { LiveStatus } from "@/components/domain/live-status";
import { useStreamOpen } from "@/components/realtime/use-change-stream";
import { useLiveInvalidation } from "@/components/realtime/use-live-invalidation";
import { LazyToaster } from "@/components/ui/toast";
import { CheckNowButton } from "../../_components/check-now-button";
import { byShop } from "../../_components/execution-cells";
import { ExecutionStateBadge } from "../../_components/execution-state-badge";
import { ExecutionKeys, ExecutionSummary } from "./execution-facts";
import { Timeline } from "./execution-timeline";
import { PayoutPanel } from "./payout-panel";

/** One execution: what is paid and to whom (or another kind's fields), its keys with copy buttons, and the timeline of what happened. */
export function ExecutionDetailView({
  id,
  canReconcile,
  canPayout,
}: {
  id: string;
  canReconcile: boolean;
  canPayout: boolean;
}) {
  const td = useTranslations("executions.detail");
  const q = useQuery(executionDetailQuery(id));
  const pushed = useStreamOpen();
  useLiveInvalidation();
  const d = q.data;
  if (!d) return null;
  const failing = q.isRefetchError || q.failureCount > 0;

  return (
    <article aria-labelledby="execution-title" className="grid min-w-0 gap-6">
      <LazyToaster richColors closeButton position="bottom-right" />
      <div className="grid gap-2">
        <Link href="/executions" className="inline-flex w-fit items-center gap-1 text-sm">
          <ArrowLeft aria-hidden className="size-4" />
          {td("back")}
        </Link>
        <div className="flex flex-wrap items-center gap-3">
          <h1 id="execution-title" className="m-0">
            {td("title", { order: d.orderNumber })}
          </h1>
          <ExecutionStateBadge state={d.status} className="text-sm" />
        </div>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <LiveStatus updatedAt={q.dataUpdatedAt} failing={failing} pushed={pushed} />
          {canReconcile && !isExecutionSettled(d.status) && d.status !== "awaiting_payout" ? (
            <CheckNowButton executionId={d.id} order={d.orderNumber} size="default" byShop={byShop(d)} />
          ) : null}
        </div>
      </div>

      {d.payout ? <PayoutPanel d={{ ...d, payout: d.payout }} canPayout={canPayout} /> : null}

      <div className="grid min-w-0 gap-4 lg:grid-cols-2">
        <ExecutionSummary d={d} />
        <ExecutionKeys d={d} />
      </div>

      <Timeline events={d.events} byShop={byShop(d)} />
    </article>
  );
}
