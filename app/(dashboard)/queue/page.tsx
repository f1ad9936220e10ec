import Link from "next/link";
import type { SearchParams } from "nuqs/server";
import { getLocale, getTranslations } from "next-intl/server";
import { formatMinor } from "@/lib/domain/format-money";
import { pageActor } from "@/lib/server/auth/page";
import { can } from "@/lib/domain/permissions";
import { listPendingProposals } from "@/lib/server/proposals/list-pending-proposals";
import { listQueueChannels } from "@/lib/server/proposals/list-queue-channels";
import type { QueueFilters } from "@/lib/queries/proposals";
import { fingerprint } from "@/lib/queries/queue-fingerprint";
import { buttonVariants } from "@/components/ui/button";
import { Section } from "@/components/page/section";
import { QueueTable } from "./_components/queue-table";
import { QueueToolbar } from "./_components/queue-toolbar";
import { QueueKeys } from "./_components/queue-keys";
import { BulkReject } from "./_components/bulk-reject";
import { NewProposalsAnnouncer } from "./_components/new-proposals-announcer";
import { loadQueueParams } from "./_components/queue-params";
import { QUEUE_MAX_PAGES } from "./_components/queue-options";
import { titleMetadata } from "@/components/page/title-metadata";

export const dynamic = "force-dynamic";

export const generateMetadata = titleMetadata("queue");

/**
 * The review queue, rendered on the server (the browser gets HTML, not a table library).
 * Filters, sort and the number of pages come from the URL; the toolbar island rewrites the URL and polls for
 * changes (router.refresh when the list changed), the keys island adds j/k.
 */
export default async function QueuePage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const actor = await pageActor("queue:read");
  const t = await getTranslations("queue");
  const locale = await getLocale();
  const params = await loadQueueParams(searchParams);
  const filters: QueueFilters = {
    ...(params.channel ? { channel: params.channel } : {}),
    ...(params.flag ? { flag: params.flag } : {}),
  };
  const wanted = Math.min(QUEUE_MAX_PAGES, Math.max(1, params.pages));
  const first = await listPendingProposals(actor, filters);
  const rows = [...first.rows];
  let cursor = first.nextCursor;
  for (let n = 1; n < wanted && cursor; n++) {
    const page = await listPendingProposals(actor, { ...filters, cursor });
    rows.push(...page.rows);
    cursor = page.nextCursor;
  }
  const channels = await listQueueChannels(actor);
  // Reviewers may reject several proposals at once (approvals stay one at a time).
  const selectable = can(actor.roles, "proposal:decide");
  const more = new URLSearchParams(
    Object.entries({ ...filters, ...(params.sort !== "expiry" ? { sort: params.sort } : {}) }),
  );
  more.set("pages", String(wanted + 1));
  return (
    <Section titleId="queue-title" title={t("title")} level={1} lead={t("description")}>
      <QueueToolbar
        channels={channels}
        params={{ channel: params.channel, flag: params.flag, sort: params.sort }}
        print={fingerprint(JSON.stringify(first))}
        renderedAt={new Date().getTime()}
      />
      <NewProposalsAnnouncer
        rows={rows.map((r) => ({
          id: r.id,
          orderNumber: r.orderNumber,
          amount:
            r.amountMinor !== null && r.currency !== null
              ? formatMinor(r.amountMinor, r.currency, locale)
              : (r.summary ?? ""),
        }))}
      />
      {selectable && rows.length > 0 ? <BulkReject /> : null}
      <QueueTable
        rows={rows}
        sort={params.sort}
        channels={channels}
        title={t("title")}
        filtered={!!(params.channel || params.flag)}
        selectable={selectable}
      />
      {cursor && wanted < QUEUE_MAX_PAGES ? (
        <p className="mt-4">
          <Link href={`/queue?${more.toString()}`} scroll={false} className={buttonVariants({ variant: "outline" })}>
            {t("loadMore")}
          </Link>
        </p>
      ) : null}
      <QueueKeys />
      <p className="mt-4 hidden text-xs text-muted-foreground md:block">{t("shortcutsHint")}</p>
    </Section>
  );
}
