"use client";

import Link from "next/link";
import { useMemo, useState, type FormEvent } from "react";
import { useInfiniteQuery, useQuery, type InfiniteData, type UseInfiniteQueryResult } from "@tanstack/react-query";
import { useQueryStates } from "nuqs";
import { useTranslations } from "next-intl";
import { executionOverviewQuery, executionsQuery, normalizeExecutionFilters } from "@/lib/queries/executions";
import { executionStates, executionSorts, type ExecutionSort, type ExecutionState } from "@/lib/domain/execution-state";
import type { ExecutionOverview, ExecutionRow, ExecutionsPage } from "@/lib/schemas/execution-dto";
import { Money } from "@/components/domain/money";
import { LiveStatus } from "@/components/domain/live-status";
import { useStreamOpen } from "@/components/realtime/use-change-stream";
import { useLiveInvalidation } from "@/components/realtime/use-live-invalidation";
import { RelativeTime } from "@/components/ui/date-time";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { NativeSelect, NativeSelectOption } from "@/components/ui/native-select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow, type Column } from "@/components/ui/table";
import { Toaster } from "@/components/ui/sonner";
import { InDoubtChart } from "./in-doubt-chart";
import { CheckNowButton } from "./check-now-button";
import { ExecutionStateBadge } from "./execution-state-badge";
import { FailureReason } from "./failure-reason";
import { executionsParams } from "./executions-params";

const panel = "rounded-xl border bg-card p-4";
const headCell =
  "h-auto px-3 py-2 align-bottom text-xs tracking-wide whitespace-normal text-muted-foreground uppercase";
const mono = "font-mono text-xs break-all";

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
      <Toaster richColors closeButton position="bottom-right" />
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
        {o ? <Counters o={o} /> : null}
      </section>

      <section aria-labelledby="exec-doubt-title" className={`min-w-0 ${panel}`}>
        <h2 id="exec-doubt-title" className="m-0 text-lg font-semibold">
          {t("inDoubtTitle")}
        </h2>
        <p className="mt-1 mb-3 text-sm text-muted-foreground">{t("inDoubtHelp")}</p>
        {!o || o.inDoubt.length === 0 ? (
          <p className="m-0">{t("inDoubtEmpty")}</p>
        ) : (
          <InDoubtQueue rows={o.inDoubt} canReconcile={canReconcile} />
        )}
      </section>

      <section aria-labelledby="exec-chart-title" className={`min-w-0 ${panel}`}>
        <h2 id="exec-chart-title" className="m-0 mb-3 text-lg font-semibold">
          {t("chartTitle")}
        </h2>
        {o ? <InDoubtChart points={o.chart} /> : null}
      </section>

      <ExecutionList list={list} />
    </div>
  );
}

/** The counters come from the same response as the chart: "in doubt now" is the chart's last point. */
function Counters({ o }: { o: ExecutionOverview }) {
  const t = useTranslations("executions");
  const card = "rounded-xl border bg-card p-3";
  const big = "m-0 text-2xl font-semibold tabular-nums";
  return (
    <>
      <dl className="m-0 grid grid-cols-2 gap-3 sm:grid-cols-3" data-counters>
        <div className={card} data-counter="inDoubt">
          <dt className="text-sm text-muted-foreground">{t("counters.inDoubt")}</dt>
          <dd className={big}>{o.counters.inDoubt}</dd>
        </div>
        <div className={card} data-counter="oldest">
          <dt className="text-sm text-muted-foreground">{t("counters.oldest")}</dt>
          <dd className={big}>
            {o.counters.inDoubt
              ? t("durationMinutes", { count: Math.round(o.counters.oldestAgeSeconds / 60) })
              : t("counters.none")}
          </dd>
        </div>
        <div className={card} data-counter="total">
          <dt className="text-sm text-muted-foreground">{t("counters.total")}</dt>
          <dd className={big}>{o.counters.total}</dd>
        </div>
      </dl>
      <p className="m-0 text-xs text-muted-foreground">{t("countersHelp")}</p>
      <dl className="m-0 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        {executionStates.map((s) => (
          <div key={s} className={card} data-state={s}>
            <dt className="text-sm text-muted-foreground">{t(`states.${s}`)}</dt>
            <dd className={big} aria-label={`${t(`states.${s}`)}: ${o.counts[s] ?? 0}`}>
              {o.counts[s] ?? 0}
            </dd>
          </div>
        ))}
      </dl>
    </>
  );
}

function ageOf(iso: string) {
  return <RelativeTime value={iso} />;
}

function InDoubtQueue({ rows, canReconcile }: { rows: ExecutionOverview["inDoubt"]; canReconcile: boolean }) {
  const t = useTranslations("executions");
  return (
    <>
      <div className="hidden min-w-0 md:block">
        <Table aria-label={t("inDoubtTitle")}>
          <TableHeader>
            <TableRow className="hover:bg-transparent">
              <TableHead scope="col" className={headCell}>
                {t("order")}
              </TableHead>
              <TableHead scope="col" className={headCell}>
                {t("amount")}
              </TableHead>
              <TableHead scope="col" className={headCell}>
                {t("why")}
              </TableHead>
              <TableHead scope="col" className={headCell}>
                {t("age")}
              </TableHead>
              <TableHead scope="col" className={headCell}>
                {t("attempts")}
              </TableHead>
              <TableHead scope="col" className={headCell}>
                {t("reconciliations")}
              </TableHead>
              <TableHead scope="col" className={headCell}>
                {t("lastError")}
              </TableHead>
              {canReconcile ? (
                <TableHead scope="col" className={headCell}>
                  {t("action")}
                </TableHead>
              ) : null}
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((r) => (
              <TableRow key={r.id} data-execution-id={r.id}>
                <TableCell className="px-3 align-top">
                  <Link
                    href={`/executions/${r.id}`}
                    aria-label={t("openExecution", { order: r.orderNumber })}
                    className="font-medium whitespace-nowrap"
                  >
                    {r.orderNumber}
                  </Link>
                </TableCell>
                <TableCell className="px-3 align-top">
                  <Money minor={r.amountMinor} currency={r.currency} />
                </TableCell>
                <TableCell className="px-3 align-top whitespace-normal">{t(`whys.${r.why}`)}</TableCell>
                <TableCell className="px-3 align-top">{ageOf(r.createdAt)}</TableCell>
                <TableCell className="px-3 align-top">{r.attempts}</TableCell>
                <TableCell className="px-3 align-top">{r.reconciliations}</TableCell>
                <TableCell className={`px-3 align-top whitespace-normal ${mono}`}>{r.lastError ?? "—"}</TableCell>
                {canReconcile ? (
                  <TableCell className="px-3 align-top whitespace-normal">
                    <CheckNowButton executionId={r.id} order={r.orderNumber} />
                  </TableCell>
                ) : null}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      <ul className="m-0 grid list-none gap-3 p-0 md:hidden" aria-label={t("inDoubtTitle")}>
        {rows.map((r) => (
          <li key={r.id} data-execution-card={r.id} className="grid gap-1 rounded-lg border p-3">
            <div className="flex items-start justify-between gap-3">
              <Link
                href={`/executions/${r.id}`}
                aria-label={t("openExecution", { order: r.orderNumber })}
                className="font-semibold"
              >
                {r.orderNumber}
              </Link>
              <span className="font-semibold">
                <Money minor={r.amountMinor} currency={r.currency} />
              </span>
            </div>
            <p className="m-0 text-sm">
              {t(`whys.${r.why}`)} · {ageOf(r.createdAt)}
            </p>
            <p className="m-0 text-sm text-muted-foreground">
              {t("attempts")}: {r.attempts} · {t("reconciliations")}: {r.reconciliations}
            </p>
            {r.lastError ? <p className={`m-0 text-muted-foreground ${mono}`}>{r.lastError}</p> : null}
            {canReconcile ? <CheckNowButton executionId={r.id} order={r.orderNumber} /> : null}
          </li>
        ))}
      </ul>
    </>
  );
}

type ListQuery = UseInfiniteQueryResult<InfiniteData<ExecutionsPage>, Error>;

function ExecutionList({ list }: { list: ListQuery }) {
  const t = useTranslations("executions");
  const [params, setParams] = useQueryStates(executionsParams);
  const [q, setQ] = useState(params.q);
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.rows) ?? [], [list.data]);
  const filtered = !!(params.state || params.q);

  function submit(event: FormEvent) {
    event.preventDefault();
    void setParams({ q: q.trim() || null });
  }

  const columns = useMemo<Column<ExecutionRow>[]>(
    () => [
      {
        id: "order",
        header: t("order"),
        cell: (r) => (
          <Link
            href={`/executions/${r.id}`}
            aria-label={t("openExecution", { order: r.orderNumber })}
            className="font-medium whitespace-nowrap"
          >
            {r.orderNumber}
          </Link>
        ),
      },
      { id: "amount", header: t("amount"), cell: (r) => <Money minor={r.amountMinor} currency={r.currency} exact /> },
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
        header: t("providerRefundId"),
        cell: (r) => <span className={mono}>{r.providerRefundId ?? "—"}</span>,
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
            {ageOf(r.createdAt)}
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

  return (
    <section aria-labelledby="exec-list-title" className="grid min-w-0 gap-3">
      <h2 id="exec-list-title" className="m-0 text-lg font-semibold">
        {t("listTitle")}
      </h2>
      <form role="search" onSubmit={submit} className="flex flex-wrap items-end gap-3">
        <div className="grid min-w-0 flex-1 basis-64 gap-1.5">
          <label htmlFor="exec-q">{t("searchLabel")}</label>
          <Input
            id="exec-q"
            type="search"
            value={q}
            maxLength={200}
            onChange={(e) => setQ(e.target.value)}
            placeholder={t("searchHint")}
          />
        </div>
        <Button type="submit">{t("searchSubmit")}</Button>
        <div className="grid gap-1.5">
          <label htmlFor="filter-state">{t("filterState")}</label>
          <NativeSelect
            id="filter-state"
            value={params.state ?? ""}
            onChange={(e) => void setParams({ state: (e.target.value || null) as ExecutionState | null })}
          >
            <NativeSelectOption value="">{t("any")}</NativeSelectOption>
            {executionStates.map((s) => (
              <NativeSelectOption key={s} value={s}>
                {t(`states.${s}`)}
              </NativeSelectOption>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1.5">
          <label htmlFor="exec-sort">{t("sort")}</label>
          <NativeSelect
            id="exec-sort"
            value={params.sort}
            onChange={(e) => void setParams({ sort: e.target.value as ExecutionSort })}
          >
            {executionSorts.map((s) => (
              <NativeSelectOption key={s} value={s}>
                {t(`sorts.${s}`)}
              </NativeSelectOption>
            ))}
          </NativeSelect>
        </div>
        {filtered ? (
          <Button
            type="button"
            variant="ghost"
            size="sm"
            onClick={() => {
              setQ("");
              void setParams({ state: null, q: null });
            }}
          >
            {t("clearFilters")}
          </Button>
        ) : null}
      </form>
      {list.isError && !list.data ? (
        <div role="alert" className="rounded-xl border border-destructive/40 bg-card p-4 text-sm">
          {list.error.message}
        </div>
      ) : rows.length === 0 ? (
        <div data-list-state="empty" className="rounded-xl border bg-card p-6 text-center text-muted-foreground">
          {filtered ? t("emptyFiltered") : t("empty")}
        </div>
      ) : (
        <>
          {/* Wide screens: a table. */}
          <div className="hidden min-w-0 rounded-xl border bg-card md:block">
            <Table aria-label={t("listTitle")}>
              <TableHeader>
                <TableRow className="hover:bg-transparent">
                  {columns.map((c) => (
                    <TableHead key={c.id} scope="col" className={headCell}>
                      {c.header}
                    </TableHead>
                  ))}
                </TableRow>
              </TableHeader>
              <TableBody>
                {rows.map((r) => (
                  <TableRow
                    key={r.id}
                    data-execution-id={r.id}
                    data-proposal-id={r.proposalId}
                    className="focus-within:bg-accent"
                  >
                    {columns.map((c) => (
                      <TableCell key={c.id} className="px-3 py-2.5 align-top whitespace-normal">
                        {c.cell(r)}
                      </TableCell>
                    ))}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
          {/* Phones: one card per execution, the whole card is the link target. */}
          <ul className="m-0 grid list-none gap-3 p-0 md:hidden" aria-label={t("listTitle")}>
            {rows.map((r) => (
              <li
                key={r.id}
                data-execution-card={r.id}
                data-proposal-id={r.proposalId}
                className="relative grid gap-1 rounded-xl border bg-card p-4 focus-within:ring-2 focus-within:ring-ring"
              >
                <div className="flex items-start justify-between gap-3">
                  <Link
                    href={`/executions/${r.id}`}
                    aria-label={t("openExecution", { order: r.orderNumber })}
                    className="font-semibold after:absolute after:inset-0 focus-visible:outline-none"
                  >
                    {r.orderNumber}
                  </Link>
                  <span className="text-right font-semibold">
                    <Money minor={r.amountMinor} currency={r.currency} />
                  </span>
                </div>
                <div className="flex flex-wrap items-center gap-2 text-sm">
                  <ExecutionStateBadge state={r.status} />
                  {ageOf(r.createdAt)}
                </div>
                {r.providerRefundId ? (
                  <p className={`m-0 text-muted-foreground ${mono}`}>{r.providerRefundId}</p>
                ) : null}
                {r.lastError ? <p className={`m-0 text-muted-foreground ${mono}`}>{r.lastError}</p> : null}
              </li>
            ))}
          </ul>
        </>
      )}
      {list.hasNextPage ? (
        <p className="m-0">
          <Button variant="outline" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
            {t("loadMore")}
          </Button>
        </p>
      ) : null}
    </section>
  );
}
