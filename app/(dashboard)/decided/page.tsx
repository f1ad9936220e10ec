import type { Metadata } from "next";
import Link from "next/link";
import type { SearchParams } from "nuqs/server";
import { getLocale, getTranslations } from "next-intl/server";
import { pageActor } from "@/lib/server/auth/page";
import { listDecidedProposals } from "@/lib/server/proposals/list-decided-proposals";
import { formatMinor } from "@/lib/domain/format-money";
import { StatusBadge } from "@/components/domain/status-badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { RefreshOnChange } from "@/components/realtime/refresh-on-change";
import { DecidedSearch } from "./_components/decided-search";
import { loadDecidedParams } from "./_components/decided-params";
import { DateTime } from "@/components/ui/date-time";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("decided"))("title") };
}

export default async function DecidedPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const actor = await pageActor("proposal:read");
  const t = await getTranslations("decided");
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
  const who = (r: (typeof result.rows)[number]) =>
    r.rejectedBy ? t("rejectedBy", { name: r.rejectedBy }) : r.reviewers.length ? r.reviewers.join(", ") : "—";
  return (
    <section aria-labelledby="decided-title">
      <h1 id="decided-title">{t("title")}</h1>
      <p className="lead">{t("description")}</p>
      <DecidedSearch />
      <RefreshOnChange />
      <p className="text-sm text-muted-foreground" aria-live="polite">
        {t("count", { count: result.total })}
      </p>
      {result.rows.length === 0 ? (
        <div className="rounded-xl border bg-card p-6 text-center text-muted-foreground">{t("empty")}</div>
      ) : (
        <>
          <div className="hidden rounded-xl border bg-card md:block">
            <Table aria-label={t("title")}>
              <TableHeader>
                <TableRow className="hover:bg-transparent">
                  {["order", "customer", "amount", "status", "who", "when"].map((c) => (
                    <TableHead
                      key={c}
                      scope="col"
                      className="px-3 text-xs tracking-wide text-muted-foreground uppercase"
                    >
                      {t(`col.${c}` as "col.order")}
                    </TableHead>
                  ))}
                </TableRow>
              </TableHeader>
              <TableBody>
                {result.rows.map((r) => (
                  <TableRow key={r.id} data-proposal-id={r.id}>
                    <TableCell className="px-3">
                      <Link href={`/proposals/${r.id}`} className="font-medium">
                        {r.orderNumber}
                      </Link>
                    </TableCell>
                    <TableCell className="px-3 whitespace-normal">{r.customerName}</TableCell>
                    <TableCell className="px-3">{formatMinor(r.amountMinor, r.currency, locale)}</TableCell>
                    <TableCell className="px-3">
                      <StatusBadge status={r.status} />
                    </TableCell>
                    <TableCell className="px-3 whitespace-normal">{who(r)}</TableCell>
                    <TableCell className="px-3">
                      {r.decidedAt ? (
                        <time dateTime={r.decidedAt} title={r.decidedAt}>
                          <DateTime value={r.decidedAt} />
                        </time>
                      ) : (
                        "—"
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
          <ul className="m-0 grid list-none gap-3 p-0 md:hidden" aria-label={t("title")}>
            {result.rows.map((r) => (
              <li key={r.id} className="rounded-xl border bg-card p-4">
                <div className="flex items-start justify-between gap-2">
                  <Link href={`/proposals/${r.id}`} className="font-semibold">
                    {r.orderNumber}
                  </Link>
                  <span className="font-semibold">{formatMinor(r.amountMinor, r.currency, locale)}</span>
                </div>
                <p className="m-0 mt-1 text-sm">{r.customerName}</p>
                <div className="mt-2 flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
                  <StatusBadge status={r.status} /> {who(r)}
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
      {pages > 1 ? (
        <nav aria-label={t("pagination")} className="mt-4 flex items-center gap-3 text-sm">
          {page > 1 ? <Link href={link(page - 1)}>← {t("prev")}</Link> : null}
          <span>{t("pageOf", { page, pages })}</span>
          {page < pages ? <Link href={link(page + 1)}>{t("next")} →</Link> : null}
        </nav>
      ) : null}
    </section>
  );
}
