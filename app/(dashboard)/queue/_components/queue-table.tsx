"use client";

import Link from "next/link";
import { useState } from "react";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useFormatter, useTranslations } from "next-intl";
import { queueQuery, type QueueFilters } from "@/lib/queries/proposals";
import type { QueueRow } from "@/lib/schemas/proposal-dto";
import { Money } from "@/components/domain/money";
import { Countdown } from "@/components/domain/countdown";

export function QueueTable({ channels }: { channels: string[] }) {
  const t = useTranslations("queue");
  const tf = useTranslations("flags");
  const tr = useTranslations("reasons");
  const format = useFormatter();
  const [filters, setFilters] = useState<QueueFilters>({});
  const queue = useInfiniteQuery(queueQuery(filters));
  const rows: QueueRow[] = queue.data?.pages.flatMap((p) => p.rows) ?? [];

  function setFilter(patch: Partial<QueueFilters>) {
    setFilters((f) => ({ ...f, ...patch }));
  }

  return (
    <>
      <div className="filters" role="search">
        <div className="field">
          <label htmlFor="filter-channel">{t("filterChannel")}</label>
          <select id="filter-channel" value={filters.channel ?? ""} onChange={(e) => setFilter({ channel: e.target.value || undefined })}>
            <option value="">{t("any")}</option>
            {channels.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="filter-flag">{t("filterFlag")}</label>
          <select id="filter-flag" value={filters.flag ?? ""} onChange={(e) => setFilter({ flag: (e.target.value || undefined) as QueueFilters["flag"] })}>
            <option value="">{t("any")}</option>
            <option value="duplicate">{tf("duplicate")}</option>
            <option value="velocity">{tf("velocity")}</option>
            <option value="two_approvals">{tf("two_approvals")}</option>
          </select>
        </div>
        <p className="muted" aria-live="polite">
          {queue.dataUpdatedAt ? t("live", { time: format.dateTime(new Date(queue.dataUpdatedAt), { timeStyle: "medium" }) }) : null}
        </p>
      </div>
      {rows.length === 0 ? (
        <div className="panel">{t("empty")}</div>
      ) : (
        <table aria-label={t("title")}>
          <thead>
            <tr>
              <th scope="col">{t("order")}</th>
              <th scope="col">{t("amount")}</th>
              <th scope="col">{t("recipient")}</th>
              <th scope="col">{t("expires")}</th>
              <th scope="col">{t("reason")}</th>
              <th scope="col">{t("channel")}</th>
              <th scope="col">{t("age")}</th>
              <th scope="col">{t("flags")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id} data-proposal-id={r.id}>
                <td>
                  <Link href={`/proposals/${r.id}`} aria-label={t("open", { order: r.orderNumber })}>
                    {r.orderNumber}
                  </Link>
                </td>
                <td>
                  <Money minor={r.amountMinor} currency={r.currency} exact />
                </td>
                <td>
                  {r.recipientDisplay}
                  <br />
                  <span className="muted">{r.recipientHolder}</span>
                </td>
                <td>
                  <Countdown until={r.expiresAt} />
                </td>
                <td>{tr.has(r.reason) ? tr(r.reason) : r.reason}</td>
                <td className="mono">{r.channel ?? "—"}</td>
                {/* eslint-disable-next-line react-hooks/purity -- an age in minutes read at render; the queue refetches and re-renders it */}
                <td>{t("ageMinutes", { count: Math.max(0, Math.round((Date.now() - new Date(r.createdAt).getTime()) / 60_000)) })}</td>
                <td>
                  {r.flags.duplicate ? <span className="badge flag">{tf("duplicate")}</span> : null}
                  {r.previouslyRejected ? (
                    <span className="badge flag" title={r.previouslyRejected.reason ?? undefined}>
                      {tf("previouslyRejected")}
                    </span>
                  ) : null}
                  {r.flags.velocity ? <span className="badge flag">{tf("velocity")}</span> : null}
                  {r.flags.twoApprovals ? <span className="badge flag">{t("approvals", { count: r.approvals, required: r.requiredApprovals })}</span> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {queue.hasNextPage ? (
        <p>
          <button type="button" className="secondary" disabled={queue.isFetchingNextPage} onClick={() => void queue.fetchNextPage()}>
            {t("loadMore")}
          </button>
        </p>
      ) : null}
    </>
  );
}
