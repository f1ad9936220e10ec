// The queue's rows, rendered on the server: sorted here (queue-sort.ts) and the HTML arrives ready — no table
// library, no row data store in the browser. Only the cells that tick (countdown, relative age) or follow the
// reader's locale (money) are client components. Wide screens get a table, phones one card per proposal.
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import type { QueueRow } from "@/lib/schemas/proposal-dto";
import { Money } from "@/components/domain/money";
import { Countdown } from "@/components/domain/countdown";
import { RelativeTime } from "@/components/ui/date-time";
import { DataTable, DataTableEmpty, type Column } from "@/components/ui/data-table";
import type { QueueSort } from "./queue-options";
import { Flags, SelectBox } from "./queue-cells";
import { sortQueueRows } from "./queue-sort";

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
  const [t, tr, tk, tb, tkind] = await Promise.all([
    getTranslations("queue"),
    getTranslations("reasons"),
    getTranslations("paymentMethods"),
    getTranslations("bulkReject"),
    getTranslations("kinds"),
  ]);
  // A refund shows its amount and recipient; another kind its name and its one line (from its hashed params).
  const amount = (r: QueueRow) =>
    r.amountMinor !== null && r.currency !== null ? (
      <Money minor={r.amountMinor} currency={r.currency} exact />
    ) : (
      <span data-kind={r.kind}>{tkind.has(`${r.kind}.title`) ? tkind(`${r.kind}.title`) : r.kind}</span>
    );
  const recipient = (r: QueueRow) =>
    r.recipientDisplay !== null ? (
      <>
        {r.recipientDisplay}
        <span className="block text-xs text-muted-foreground">
          {r.recipientHolder} · {r.recipientKind && tk.has(r.recipientKind) ? tk(r.recipientKind) : r.recipientKind}
        </span>
      </>
    ) : (
      <span data-summary>{r.summary}</span>
    );
  const channelName = new Map(channels.map((c) => [c.slug, c.name]));
  const reason = (r: QueueRow) => (tr.has(r.reason) ? tr(r.reason) : r.reason);
  const channel = (r: QueueRow) => (r.channel ? (channelName.get(r.channel) ?? r.channel) : "—");
  const select = (r: QueueRow) => <SelectBox r={r} label={tb("select", { order: r.orderNumber })} />;
  // The link to a proposal (j/k move between these: queue-keys.tsx), in a table cell or across a phone's card.
  const open = (r: QueueRow, className: string) => (
    <Link
      href={`/proposals/${r.id}`}
      data-queue-link
      aria-label={t("open", { order: r.orderNumber })}
      className={className}
    >
      {r.orderNumber}
    </Link>
  );

  const columns: Column<QueueRow>[] = [
    ...(selectable ? [{ id: "select", header: tb("selectHeader"), cell: select }] : []),
    {
      id: "orderNumber",
      header: t("order"),
      cell: (r) => open(r, "font-medium whitespace-nowrap"),
    },
    {
      id: "amountMinor",
      header: t("amount"),
      cell: amount,
    },
    { id: "recipient", header: t("recipient"), cell: recipient },
    { id: "expiresAt", header: t("expires"), cell: (r) => <Countdown until={r.expiresAt} showAbsolute={false} /> },
    { id: "reason", header: t("reason"), cell: reason },
    { id: "channel", header: t("channel"), cell: channel },
    { id: "createdAt", header: t("age"), cell: (r) => <RelativeTime value={r.createdAt} /> },
    { id: "flags", header: t("flags"), cell: (r) => <Flags r={r} /> },
  ];

  return (
    <DataTable
      label={title}
      columns={columns}
      rows={sortQueueRows(rows, sort)}
      rowAttributes={(r) => ({ "data-proposal-id": r.id })}
      rowClassName="focus-within:bg-accent"
      wrapperAttributes={{ "data-queue-state": "table" }}
      empty={<DataTableEmpty data-queue-state="empty">{filtered ? t("emptyFiltered") : t("empty")}</DataTableEmpty>}
      // Phones: one card per proposal, the whole card is the link target.
      cardAttributes={(r) => ({ "data-proposal-card": r.id })}
      cardClassName="relative block gap-0 text-base focus-within:ring-2 focus-within:ring-ring"
      card={(r) => (
        <>
          <div className="flex items-start justify-between gap-3">
            {selectable ? select(r) : null}
            {open(r, "font-semibold after:absolute after:inset-0 focus-visible:outline-none")}
            <span className="text-right text-lg font-semibold">{amount(r)}</span>
          </div>
          <p className="m-0 mt-1 text-sm">
            {r.recipientDisplay !== null ? `${r.recipientDisplay} · ${r.recipientHolder}` : r.summary}
          </p>
          <p className="m-0 mt-1 text-sm text-muted-foreground">
            {reason(r)} · {channel(r)} · <RelativeTime value={r.createdAt} />
          </p>
          <div className="mt-2 flex flex-wrap items-center justify-between gap-2 text-sm">
            <Countdown until={r.expiresAt} showAbsolute={false} />
            <Flags r={r} />
          </div>
        </>
      )}
    />
  );
}
