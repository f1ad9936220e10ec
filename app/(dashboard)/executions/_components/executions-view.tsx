"use client";

import Link from "next/link";
import { useState } from "react";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useFormatter, useTranslations } from "next-intl";
import { checkExecutionNow, executionKeys, executionOverviewQuery, executionsQuery, type ExecutionFilters } from "@/lib/queries/executions";
import { executionStates, type ExecutionState } from "@/lib/schemas/executions";
import type { ExecutionRow } from "@/lib/schemas/execution-dto";
import { Money } from "@/components/domain/money";
import { DateTime } from "@/components/ui/date-time";
import { InDoubtChart } from "./in-doubt-chart";

const ageMinutes = (iso: string) => Math.max(0, Math.round((Date.now() - new Date(iso).getTime()) / 60_000));

export function ExecutionsView({ canReconcile }: { canReconcile: boolean }) {
  const t = useTranslations("executions");
  const format = useFormatter();
  const [filters, setFilters] = useState<ExecutionFilters>({});
  const overview = useQuery(executionOverviewQuery());
  const list = useInfiniteQuery(executionsQuery(filters));
  const rows: ExecutionRow[] = list.data?.pages.flatMap((p) => p.rows) ?? [];
  const o = overview.data;

  return (
    <div className="stack">
      <section aria-labelledby="exec-counts-title">
        <h2 id="exec-counts-title">{t("countsTitle")}</h2>
        <dl style={{ display: "flex", gap: "1rem", flexWrap: "wrap" }}>
          {executionStates.map((s) => (
            <div key={s} className="panel" data-state={s} style={{ minWidth: "8rem" }}>
              <dt className="muted">{t(`states.${s}`)}</dt>
              <dd style={{ fontSize: "1.6rem", margin: 0 }} aria-label={`${t(`states.${s}`)}: ${o?.counts[s] ?? 0}`}>
                {o?.counts[s] ?? 0}
              </dd>
            </div>
          ))}
        </dl>
        <p className="muted" aria-live="polite">
          {list.dataUpdatedAt ? t("live", { time: format.dateTime(new Date(list.dataUpdatedAt), { timeStyle: "medium" }) }) : null}
        </p>
      </section>

      <section aria-labelledby="exec-doubt-title" className="panel">
        <h2 id="exec-doubt-title">{t("inDoubtTitle")}</h2>
        <p className="muted">{t("inDoubtHelp")}</p>
        {!o || o.inDoubt.length === 0 ? (
          <p>{t("inDoubtEmpty")}</p>
        ) : (
          <table aria-label={t("inDoubtTitle")}>
            <thead>
              <tr>
                <th scope="col">{t("order")}</th>
                <th scope="col">{t("amount")}</th>
                <th scope="col">{t("why")}</th>
                <th scope="col">{t("age")}</th>
                <th scope="col">{t("attempts")}</th>
                <th scope="col">{t("reconciliations")}</th>
                <th scope="col">{t("lastError")}</th>
                <th scope="col">{t("action")}</th>
              </tr>
            </thead>
            <tbody>
              {o.inDoubt.map((r) => (
                <tr key={r.id} data-execution-id={r.id}>
                  <td>
                    <Link href={`/proposals/${r.proposalId}`}>{r.orderNumber}</Link>
                  </td>
                  <td>
                    <Money minor={r.amountMinor} currency={r.currency} />
                  </td>
                  <td>{t(`whys.${r.why}`)}</td>
                  <td>{t("ageMinutes", { count: ageMinutes(r.createdAt) })}</td>
                  <td>{r.attempts}</td>
                  <td>{r.reconciliations}</td>
                  <td className="mono">{r.lastError ?? "—"}</td>
                  <td>{canReconcile ? <CheckNowButton executionId={r.id} order={r.orderNumber} /> : null}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section aria-labelledby="exec-chart-title" className="panel">
        <h2 id="exec-chart-title">{t("chartTitle")}</h2>
        {o ? <InDoubtChart points={o.chart} /> : null}
      </section>

      <section aria-labelledby="exec-list-title">
        <h2 id="exec-list-title">{t("listTitle")}</h2>
        <div className="filters" role="search">
          <div className="field">
            <label htmlFor="filter-state">{t("filterState")}</label>
            <select
              id="filter-state"
              value={filters.state ?? ""}
              onChange={(e) => setFilters({ state: (e.target.value || undefined) as ExecutionState | undefined })}
            >
              <option value="">{t("any")}</option>
              {executionStates.map((s) => (
                <option key={s} value={s}>
                  {t(`states.${s}`)}
                </option>
              ))}
            </select>
          </div>
        </div>
        {rows.length === 0 ? (
          <div className="panel">{t("empty")}</div>
        ) : (
          <table aria-label={t("listTitle")}>
            <thead>
              <tr>
                <th scope="col">{t("order")}</th>
                <th scope="col">{t("amount")}</th>
                <th scope="col">{t("state")}</th>
                <th scope="col">{t("attempts")}</th>
                <th scope="col">{t("reconciliations")}</th>
                <th scope="col">{t("providerRefundId")}</th>
                <th scope="col">{t("idempotencyKey")}</th>
                <th scope="col">{t("age")}</th>
                <th scope="col">{t("lastError")}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id} data-execution-id={r.id} data-proposal-id={r.proposalId}>
                  <td>
                    <Link href={`/proposals/${r.proposalId}`} aria-label={t("open", { order: r.orderNumber })}>
                      {r.orderNumber}
                    </Link>
                  </td>
                  <td>
                    <Money minor={r.amountMinor} currency={r.currency} exact />
                  </td>
                  <td>
                    <span className={r.status === "failed" || r.status === "unknown" ? "badge danger" : "badge"} data-state={r.status}>
                      {t(`states.${r.status}`)}
                    </span>
                    {r.failureReason ? <span className="muted"> {r.failureReason}</span> : null}
                  </td>
                  <td>{r.attempts}</td>
                  <td>{r.reconciliations}</td>
                  <td className="mono">{r.providerRefundId ?? "—"}</td>
                  <td className="mono">{r.idempotencyKey}</td>
                  <td>
                    <span title={r.createdAt}>{t("ageMinutes", { count: ageMinutes(r.createdAt) })}</span>
                    {r.settledAt ? (
                      <>
                        <br />
                        <span className="muted">
                          {t("settled")} <DateTime value={r.settledAt} />
                        </span>
                      </>
                    ) : null}
                  </td>
                  <td className="mono">{r.lastError ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {list.hasNextPage ? (
          <p>
            <button type="button" className="secondary" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
              {t("loadMore")}
            </button>
          </p>
        ) : null}
      </section>
    </div>
  );
}

/** Runs reconciliation now (asks the provider first). There is deliberately no re-send button. */
function CheckNowButton({ executionId, order }: { executionId: string; order: string }) {
  const t = useTranslations("executions");
  const client = useQueryClient();
  const check = useMutation({
    mutationFn: () => checkExecutionNow(executionId),
    onSettled: () => client.invalidateQueries({ queryKey: executionKeys.all }),
  });
  return (
    <>
      <button type="button" className="secondary" aria-label={t("checkNowFor", { order })} disabled={check.isPending} onClick={() => check.mutate()}>
        {t("checkNow")}
      </button>
      <span role="status" className="muted">
        {check.isSuccess ? ` ${t("checkQueued")}` : check.isError ? ` ${check.error.message}` : ""}
      </span>
    </>
  );
}
