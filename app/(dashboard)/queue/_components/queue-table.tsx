"use client";

import Link from "next/link";
import { useMemo } from "react";
import { useInfiniteQuery } from "@tanstack/react-query";
import { flexRender, getCoreRowModel, getSortedRowModel, useReactTable, type ColumnDef, type SortingState } from "@tanstack/react-table";
import { useQueryStates } from "nuqs";
import { useTranslations } from "next-intl";
import { queueQuery, type QueueFilters } from "@/lib/queries/proposals";
import type { QueueRow } from "@/lib/schemas/proposal-dto";
import { Money } from "@/components/domain/money";
import { Countdown } from "@/components/domain/countdown";
import { LiveStatus } from "@/components/domain/live-status";
import { RelativeTime } from "@/components/ui/date-time";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { NativeSelect, NativeSelectOption } from "@/components/ui/native-select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useShortcuts } from "@/components/reviewer/use-shortcuts";
import { queueFlags, queueParams, queueSorts, type QueueSort } from "./queue-params";

const sortToState: Record<QueueSort, SortingState> = {
  expiry: [{ id: "expiresAt", desc: false }],
  amount_desc: [{ id: "amountMinor", desc: true }],
  amount_asc: [{ id: "amountMinor", desc: false }],
  newest: [{ id: "createdAt", desc: true }],
};

/** Moves focus between queue items (rows on wide screens, cards on phones) for j/k. */
function focusItem(step: 1 | -1) {
  const links = [...document.querySelectorAll<HTMLAnchorElement>("[data-queue-link]")].filter((el) => el.offsetParent !== null);
  if (links.length === 0) return;
  const at = links.findIndex((el) => el === document.activeElement);
  const next = links[at < 0 ? (step === 1 ? 0 : links.length - 1) : Math.min(links.length - 1, Math.max(0, at + step))];
  next?.focus();
  next?.scrollIntoView({ block: "nearest" });
}

function Flags({ r }: { r: QueueRow }) {
  const t = useTranslations("queue");
  const tf = useTranslations("flags");
  const tfh = useTranslations("flagsHelp");
  const tc = useTranslations("proposal.claim");
  const warn = "border-warning-foreground/40 bg-warning text-warning-foreground";
  return (
    <span className="flex flex-wrap gap-1">
      {r.claim ? (
        // The advisory "I'm reviewing this" claim, while it lasts.
        <Badge variant="secondary" data-testid="claim-badge">
          {r.claim.mine ? tc("badgeMine") : tc("badge", { name: r.claim.by })}
        </Badge>
      ) : null}
      {r.flags.duplicate ? (
        <Badge variant="outline" className={warn} title={tfh("duplicate")}>
          {tf("duplicate")}
        </Badge>
      ) : null}
      {r.previouslyRejected ? (
        <Badge variant="outline" className={warn} title={r.previouslyRejected.reason ?? undefined} data-testid="previously-rejected-badge">
          {tf("previouslyRejected")}
        </Badge>
      ) : null}
      {r.flags.velocity ? (
        <Badge variant="outline" className={warn} title={tfh("velocity")}>
          {tf("velocity")}
        </Badge>
      ) : null}
      {r.flags.twoApprovals ? (
        <Badge variant="secondary" title={tfh("two_approvals")}>
          {t("approvals", { count: r.approvals, required: r.requiredApprovals })}
        </Badge>
      ) : null}
    </span>
  );
}

export function QueueTable({ channels, title }: { channels: { slug: string; name: string }[]; title: string }) {
  const t = useTranslations("queue");
  const tf = useTranslations("flags");
  const tr = useTranslations("reasons");
  const tk = useTranslations("paymentMethods");
  const [params, setParams] = useQueryStates(queueParams);
  const filters: QueueFilters = { ...(params.channel ? { channel: params.channel } : {}), ...(params.flag ? { flag: params.flag } : {}) };
  const queue = useInfiniteQuery(queueQuery(filters));
  const rows = useMemo(() => queue.data?.pages.flatMap((p) => p.rows) ?? [], [queue.data]);
  const channelName = useMemo(() => new Map(channels.map((c) => [c.slug, c.name])), [channels]);
  const failing = queue.isRefetchError || queue.failureCount > 0;

  useShortcuts({
    j: () => focusItem(1),
    k: () => focusItem(-1),
  });

  const columns = useMemo<ColumnDef<QueueRow>[]>(
    () => [
      {
        id: "orderNumber",
        header: t("order"),
        cell: ({ row: { original: r } }) => (
          <Link href={`/proposals/${r.id}`} data-queue-link aria-label={t("open", { order: r.orderNumber })} className="font-medium whitespace-nowrap">
            {r.orderNumber}
          </Link>
        ),
      },
      {
        id: "amountMinor",
        accessorKey: "amountMinor",
        header: t("amount"),
        cell: ({ row: { original: r } }) => <Money minor={r.amountMinor} currency={r.currency} exact />,
      },
      {
        id: "recipient",
        header: t("recipient"),
        cell: ({ row: { original: r } }) => (
          <>
            {r.recipientDisplay}
            <span className="block text-xs text-muted-foreground">
              {r.recipientHolder} · {tk.has(r.recipientKind) ? tk(r.recipientKind) : r.recipientKind}
            </span>
          </>
        ),
      },
      {
        id: "expiresAt",
        accessorFn: (r) => r.expiresAt,
        header: t("expires"),
        cell: ({ row: { original: r } }) => <Countdown until={r.expiresAt} showAbsolute={false} />,
      },
      { id: "reason", header: t("reason"), cell: ({ row: { original: r } }) => (tr.has(r.reason) ? tr(r.reason) : r.reason) },
      { id: "channel", header: t("channel"), cell: ({ row: { original: r } }) => (r.channel ? (channelName.get(r.channel) ?? r.channel) : "—") },
      { id: "createdAt", accessorFn: (r) => r.createdAt, header: t("age"), cell: ({ row: { original: r } }) => <RelativeTime value={r.createdAt} /> },
      { id: "flags", header: t("flags"), cell: ({ row: { original: r } }) => <Flags r={r} /> },
    ],
    [t, tr, tk, channelName],
  );

  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Table's instance is read fresh each render; nothing here is memoized from it
  const table = useReactTable({
    data: rows,
    columns,
    state: { sorting: sortToState[params.sort] },
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getRowId: (r) => r.id,
  });
  const sorted = table.getRowModel().rows;
  const filtered = !!(params.channel || params.flag);

  return (
    <>
      <div className="mb-4 flex flex-wrap items-end gap-3" role="search">
        <div className="grid gap-1.5">
          <label htmlFor="filter-channel">{t("filterChannel")}</label>
          <NativeSelect id="filter-channel" value={params.channel ?? ""} onChange={(e) => void setParams({ channel: e.target.value || null })}>
            <NativeSelectOption value="">{t("any")}</NativeSelectOption>
            {channels.map((c) => (
              <NativeSelectOption key={c.slug} value={c.slug}>
                {c.name}
              </NativeSelectOption>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1.5">
          <label htmlFor="filter-flag">{t("filterFlag")}</label>
          <NativeSelect
            id="filter-flag"
            value={params.flag ?? ""}
            onChange={(e) => void setParams({ flag: (e.target.value || null) as (typeof queueFlags)[number] | null })}
          >
            <NativeSelectOption value="">{t("any")}</NativeSelectOption>
            {queueFlags.map((f) => (
              <NativeSelectOption key={f} value={f}>
                {tf(f)}
              </NativeSelectOption>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1.5">
          <label htmlFor="queue-sort">{t("sort")}</label>
          <NativeSelect id="queue-sort" value={params.sort} onChange={(e) => void setParams({ sort: e.target.value as QueueSort })}>
            {queueSorts.map((s) => (
              <NativeSelectOption key={s} value={s}>
                {t(`sorts.${s}`)}
              </NativeSelectOption>
            ))}
          </NativeSelect>
        </div>
        {filtered ? (
          <Button variant="ghost" size="sm" onClick={() => void setParams({ channel: null, flag: null })}>
            {t("clearFilters")}
          </Button>
        ) : null}
        <LiveStatus updatedAt={queue.dataUpdatedAt} failing={failing} className="sm:ml-auto" />
      </div>

      {sorted.length === 0 ? (
        <div data-queue-state="empty" className="rounded-xl border bg-card p-6 text-center text-muted-foreground">
          {filtered ? t("emptyFiltered") : t("empty")}
        </div>
      ) : (
        <>
          {/* Wide screens: a table. */}
          <div data-queue-state="table" className="hidden rounded-xl border bg-card md:block">
            <Table aria-label={title}>
              <TableHeader>
                {table.getHeaderGroups().map((g) => (
                  <TableRow key={g.id} className="hover:bg-transparent">
                    {g.headers.map((h) => (
                      <TableHead key={h.id} scope="col" className="px-3 text-xs tracking-wide text-muted-foreground uppercase">
                        {flexRender(h.column.columnDef.header, h.getContext())}
                      </TableHead>
                    ))}
                  </TableRow>
                ))}
              </TableHeader>
              <TableBody>
                {sorted.map((row) => (
                  <TableRow key={row.id} data-proposal-id={row.id} className="focus-within:bg-accent">
                    {row.getVisibleCells().map((cell) => (
                      <TableCell key={cell.id} className="px-3 py-2.5 align-top whitespace-normal">
                        {flexRender(cell.column.columnDef.cell, cell.getContext())}
                      </TableCell>
                    ))}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
          {/* Phones: one card per proposal, the whole card is the link target. */}
          <ul className="m-0 grid list-none gap-3 p-0 md:hidden" aria-label={title}>
            {sorted.map(({ original: r }) => (
              <li key={r.id} data-proposal-card={r.id} className="relative rounded-xl border bg-card p-4 focus-within:ring-2 focus-within:ring-ring">
                <div className="flex items-start justify-between gap-3">
                  <Link
                    href={`/proposals/${r.id}`}
                    data-queue-link
                    aria-label={t("open", { order: r.orderNumber })}
                    className="font-semibold after:absolute after:inset-0 focus-visible:outline-none"
                  >
                    {r.orderNumber}
                  </Link>
                  <span className="text-right text-lg font-semibold">
                    <Money minor={r.amountMinor} currency={r.currency} exact />
                  </span>
                </div>
                <p className="m-0 mt-1 text-sm">
                  {r.recipientDisplay} · {r.recipientHolder}
                </p>
                <p className="m-0 mt-1 text-sm text-muted-foreground">
                  {tr.has(r.reason) ? tr(r.reason) : r.reason} · {r.channel ? (channelName.get(r.channel) ?? r.channel) : "—"} ·{" "}
                  <RelativeTime value={r.createdAt} />
                </p>
                <div className="mt-2 flex flex-wrap items-center justify-between gap-2 text-sm">
                  <Countdown until={r.expiresAt} showAbsolute={false} />
                  <Flags r={r} />
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
      {queue.hasNextPage ? (
        <p className="mt-4">
          <Button variant="outline" disabled={queue.isFetchingNextPage} onClick={() => void queue.fetchNextPage()}>
            {t("loadMore")}
          </Button>
        </p>
      ) : null}
      <p className="mt-4 hidden text-xs text-muted-foreground md:block">{t("shortcutsHint")}</p>
    </>
  );
}
