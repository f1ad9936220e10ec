import type { Metadata } from "next";
import type { SearchParams } from "nuqs/server";
import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { getTranslations } from "next-intl/server";
import { pageActor } from "@/lib/server/auth/page";
import { listPendingProposals } from "@/lib/server/proposals/list-pending-proposals";
import { proposalKeys, type QueueFilters } from "@/lib/queries/proposals";
import { listQueueChannels } from "@/lib/server/proposals/list-queue-channels";
import { QueueTable } from "./_components/queue-table";
import { loadQueueParams } from "./_components/queue-params";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("queue"))("title") };
}

export default async function QueuePage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const actor = await pageActor("queue:read");
  const t = await getTranslations("queue");
  // Filters come from the URL, so a reload or a shared link shows the same list from the first paint.
  const params = await loadQueueParams(searchParams);
  const filters: QueueFilters = { ...(params.channel ? { channel: params.channel } : {}), ...(params.flag ? { flag: params.flag } : {}) };
  // Seed the client cache under the same key the client hook uses: the first paint has data.
  const client = new QueryClient();
  client.setQueryData(proposalKeys.queue(filters), { pages: [await listPendingProposals(actor, filters)], pageParams: [undefined] });
  const channels = await listQueueChannels(actor);
  return (
    <section aria-labelledby="queue-title">
      <h1 id="queue-title">{t("title")}</h1>
      <p className="lead">{t("description")}</p>
      <HydrationBoundary state={dehydrate(client)}>
        <QueueTable channels={channels} title={t("title")} />
      </HydrationBoundary>
    </section>
  );
}
