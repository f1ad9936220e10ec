import Link from "next/link";
import type { SearchParams } from "nuqs/server";
import { getLocale, getTranslations } from "next-intl/server";
import { pageActor } from "@/lib/server/auth/page";
import { listDecidedProposals } from "@/lib/server/proposals/list-decided-proposals";
import { formatMinor } from "@/lib/domain/format-money";
import { StatusBadge } from "@/components/domain/status-badge";
import { DataTable, DataTableEmpty, type Column } from "@/components/ui/data-table";
import { RefreshOnChange } from "@/components/realtime/refresh-on-change";
import { Section } from "@/components/page/section";
import { DecidedSearch } from "./_components/decided-search";
import { loadDecidedParams } from "./_components/decided-params";
import { DateTime } from "@/components/ui/date-time";
import { titleMetadata } from "@/components/page/title-metadata";

export const dynamic = "force-dynamic";

export const generateMetadata = titleMetadata("decided");

export default async function DecidedPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const actor = await pageActor("proposal:read");
  const t = await getTranslations("decided");
  const tkind = await getTranslations("kinds");
  const locale = await getLocale();
  const { q, status, page } = await loadDecidedParams(searchParams);
  const result = await listDecidedProposals(actor, {
    ...(q ? { q } : {}),
    ...(status ? { status } : {}),
    page: Math.max(1, page),
  });
  const pages = Math.max(1, Math.ceil(result.total / result.pageSize));
  const link = (p: number) => {
    const s = new URLSearchParams({
      ...(q ? { q } : {}),
      ...(status ? { status } : {}),
      ...(p > 1 ? { page: String(p) } : {}),
    });
    return `/decided${s.size ? `?${s}` : ""}`;
  };
  type Row = (typeof result.rows)[number];
  // A refund's amount; another kind's name and its one line, both from the hashed params.
  const action = (r: Row) =>
    r.amountMinor !== null && r.currency !== null ? (
      formatMinor(r.amountMinor, r.currency, locale)
    ) : (
      <span data-kind={r.kind}>
        {tkind.has(`${r.kind}.title`) ? tkind(`${r.kind}.title`) : r.kind}
        {r.summary ? <span className="block text-xs text-muted-foreground whitespace-normal">{r.summary}</span> : null}
      </span>
    );
  const who = (r: Row) =>
    r.rejectedBy ? t("rejectedBy", { name: r.rejectedBy }) : r.reviewers.length ? r.reviewers.join(", ") : "—";
  const columns: Column<Row>[] = [
    {
      id: "order",
      header: t("col.order"),
      cell: (r) => (
        <Link href={`/proposals/${r.id}`} className="font-medium">
          {r.orderNumber}
        </Link>
      ),
    },
    { id: "customer", header: t("col.customer"), cell: (r) => r.customerName, className: "whitespace-normal" },
    { id: "amount", header: t("col.amount"), cell: action },
    { id: "status", header: t("col.status"), cell: (r) => <StatusBadge status={r.status} /> },
    { id: "who", header: t("col.who"), cell: who, className: "whitespace-normal" },
    {
      id: "when",
      header: t("col.when"),
      cell: (r) =>
        r.decidedAt ? (
          <time dateTime={r.decidedAt} title={r.decidedAt}>
            <DateTime value={r.decidedAt} />
          </time>
        ) : (
          "—"
        ),
    },
  ];
  return (
    <Section titleId="decided-title" title={t("title")} level={1} lead={t("description")}>
      <DecidedSearch />
      <RefreshOnChange />
      <p className="text-sm text-muted-foreground" aria-live="polite">
        {t("count", { count: result.total })}
      </p>
      <DataTable
        label={t("title")}
        columns={columns}
        rows={result.rows}
        rowAttributes={(r) => ({ "data-proposal-id": r.id })}
        cellClassName="py-2 align-middle whitespace-nowrap"
        empty={<DataTableEmpty>{t("empty")}</DataTableEmpty>}
        cardClassName="block text-base"
        card={(r) => (
          <>
            <div className="flex items-start justify-between gap-2">
              <Link href={`/proposals/${r.id}`} className="font-semibold">
                {r.orderNumber}
              </Link>
              <span className="font-semibold">{action(r)}</span>
            </div>
            <p className="m-0 mt-1 text-sm">{r.customerName}</p>
            <div className="mt-2 flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
              <StatusBadge status={r.status} /> {who(r)}
            </div>
          </>
        )}
      />
      {pages > 1 ? (
        <nav aria-label={t("pagination")} className="mt-4 flex items-center gap-3 text-sm">
          {page > 1 ? <Link href={link(page - 1)}>← {t("prev")}</Link> : null}
          <span>{t("pageOf", { page, pages })}</span>
          {page < pages ? <Link href={link(page + 1)}>{t("next")} →</Link> : null}
        </nav>
      ) : null}
    </Section>
  );
}
