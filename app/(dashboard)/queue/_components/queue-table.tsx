// The queue's rows, rendered on the server: TanStack Table (headless table-core) builds the sorted row
// model here and the HTML arrives ready — no table library, no row data store in the browser. Only the
// cells that tick (countdown, relative age) or follow the reader's locale (money) are client components.
// Wide screens get a table, phones one card per proposal.
import type { ReactNode } from "react";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import {
  createTable,
  getCoreRowModel,
  getSortedRowModel,
  type CellContext,
  type ColumnDef,
  type SortingState,
} from "@tanstack/table-core";
import type { QueueRow } from "@/lib/schemas/proposal-dto";
import { Money } from "@/components/domain/money";
import { Countdown } from "@/components/domain/countdown";
import { RelativeTime } from "@/components/ui/date-time";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { QueueSort } from "./queue-options";
import { BULK_CHECKBOX } from "./queue-options";

const sortToState: Record<QueueSort, SortingState> = {
  expiry: [{ id: "expiresAt", desc: false }],
  amount_desc: [{ id: "amountMinor", desc: true }],
  amount_asc: [{ id: "amountMinor", desc: false }],
  newest: [{ id: "createdAt", desc: true }],
};

type Cell = (ctx: CellContext<QueueRow, unknown>) => ReactNode;

/** Builds the sorted row model once, on the server (table-core is framework-free; no React state). */
export function sortQueueRows(rows: QueueRow[], columns: ColumnDef<QueueRow>[], sort: QueueSort) {
  const table = createTable<QueueRow>({
    data: rows,
    columns,
    state: {},
    onStateChange: () => undefined,
    renderFallbackValue: null,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getRowId: (r) => r.id,
  });
  table.setOptions((prev) => ({ ...prev, state: { ...table.initialState, sorting: sortToState[sort] } }));
  return table;
}

async function Flags({ r }: { r: QueueRow }) {
  const [t, tf, tfh, tc] = await Promise.all([
    getTranslations("queue"),
    getTranslations("flags"),
    getTranslations("flagsHelp"),
    getTranslations("proposal.claim"),
  ]);
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
        <Badge
          variant="outline"
          className={warn}
          title={r.previouslyRejected.reason ?? undefined}
          data-testid="previously-rejected-badge"
        >
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

/**
 * A row's bulk-reject checkbox (reviewers): a native input the BulkReject island reads — value the proposal id,
 * data-hash the hash shown, so each rejection is bound to what the reviewer saw.
 */
function SelectBox({ r, label }: { r: QueueRow; label: string }) {
  return (
    <input
      type="checkbox"
      name={BULK_CHECKBOX}
      value={r.id}
      data-hash={r.hash}
      data-order={r.orderNumber}
      aria-label={label}
      className="relative z-10 size-4 accent-primary"
    />
  );
}

export async function QueueTable({
  rows,
  sort,
  channels,
  title,
  filtered,
  selectable = false,
}: {
  rows: QueueRow[];
  sort: QueueSort;
  channels: { slug: string; name: string }[];
  title: string;
  filtered: boolean;
  /** Reviewers: each row gets a checkbox for bulk reject. */
  selectable?: boolean;
}) {
  const [t, tr, tk, tb] = await Promise.all([
    getTranslations("queue"),
    getTranslations("reasons"),
    getTranslations("paymentMethods"),
    getTranslations("bulkReject"),
  ]);
  const channelName = new Map(channels.map((c) => [c.slug, c.name]));
  const reason = (r: QueueRow) => (tr.has(r.reason) ? tr(r.reason) : r.reason);
  const channel = (r: QueueRow) => (r.channel ? (channelName.get(r.channel) ?? r.channel) : "—");
  const cell =
    (render: (r: QueueRow) => ReactNode): Cell =>
    (ctx) =>
      render(ctx.row.original);

  const select = (r: QueueRow) => <SelectBox r={r} label={tb("select", { order: r.orderNumber })} />;
  const columns: ColumnDef<QueueRow>[] = [
    ...(selectable
      ? [{ id: "select", header: tb("selectHeader"), cell: cell(select) } satisfies ColumnDef<QueueRow>]
      : []),
    {
      id: "orderNumber",
      header: t("order"),
      cell: cell((r) => (
        <Link
          href={`/proposals/${r.id}`}
          data-queue-link
          aria-label={t("open", { order: r.orderNumber })}
          className="font-medium whitespace-nowrap"
        >
          {r.orderNumber}
        </Link>
      )),
    },
    {
      id: "amountMinor",
      accessorKey: "amountMinor",
      header: t("amount"),
      cell: cell((r) => <Money minor={r.amountMinor} currency={r.currency} exact />),
    },
    {
      id: "recipient",
      header: t("recipient"),
      cell: cell((r) => (
        <>
          {r.recipientDisplay}
          <span className="block text-xs text-muted-foreground">
            {r.recipientHolder} · {tk.has(r.recipientKind) ? tk(r.recipientKind) : r.recipientKind}
          </span>
        </>
      )),
    },
    {
      id: "expiresAt",
      accessorFn: (r) => r.expiresAt,
      header: t("expires"),
      cell: cell((r) => <Countdown until={r.expiresAt} showAbsolute={false} />),
    },
    { id: "reason", header: t("reason"), cell: cell(reason) },
    { id: "channel", header: t("channel"), cell: cell(channel) },
    {
      id: "createdAt",
      accessorFn: (r) => r.createdAt,
      header: t("age"),
      cell: cell((r) => <RelativeTime value={r.createdAt} />),
    },
    { id: "flags", header: t("flags"), cell: cell((r) => <Flags r={r} />) },
  ];

  const table = sortQueueRows(rows, columns, sort);
  const sorted = table.getRowModel().rows;

  if (sorted.length === 0) {
    return (
      <div data-queue-state="empty" className="rounded-xl border bg-card p-6 text-center text-muted-foreground">
        {filtered ? t("emptyFiltered") : t("empty")}
      </div>
    );
  }
  return (
    <>
      {/* Wide screens: a table. */}
      <div data-queue-state="table" className="hidden rounded-xl border bg-card md:block">
        <Table aria-label={title}>
          <TableHeader>
            {table.getHeaderGroups().map((g) => (
              <TableRow key={g.id} className="hover:bg-transparent">
                {g.headers.map((h) => (
                  <TableHead
                    key={h.id}
                    scope="col"
                    className="px-3 text-xs tracking-wide text-muted-foreground uppercase"
                  >
                    {h.column.columnDef.header as string}
                  </TableHead>
                ))}
              </TableRow>
            ))}
          </TableHeader>
          <TableBody>
            {sorted.map((row) => (
              <TableRow key={row.id} data-proposal-id={row.id} className="focus-within:bg-accent">
                {row.getVisibleCells().map((c) => (
                  <TableCell key={c.id} className="px-3 py-2.5 align-top whitespace-normal">
                    {(c.column.columnDef.cell as Cell)(c.getContext())}
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
          <li
            key={r.id}
            data-proposal-card={r.id}
            className="relative rounded-xl border bg-card p-4 focus-within:ring-2 focus-within:ring-ring"
          >
            <div className="flex items-start justify-between gap-3">
              {selectable ? select(r) : null}
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
              {reason(r)} · {channel(r)} · <RelativeTime value={r.createdAt} />
            </p>
            <div className="mt-2 flex flex-wrap items-center justify-between gap-2 text-sm">
              <Countdown until={r.expiresAt} showAbsolute={false} />
              <Flags r={r} />
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}
