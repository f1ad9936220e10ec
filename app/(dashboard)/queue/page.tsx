import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { getTranslations } from "next-intl/server";
import { pageActor } from "@/lib/server/auth/page";
import { listPendingProposals } from "@/lib/server/proposals/list-pending-proposals";
import { proposalKeys } from "@/lib/queries/proposals";
import { listQueueChannels } from "@/lib/server/proposals/list-queue-channels";
import { QueueTable } from "./_components/queue-table";

export const dynamic = "force-dynamic";

export default async function QueuePage() {
  const actor = await pageActor("queue:read");
  const t = await getTranslations("queue");
  // Seed the client cache under the same key the client hook uses: the first paint has data.
  const client = new QueryClient();
  client.setQueryData(proposalKeys.queue({}), { pages: [await listPendingProposals(actor, {})], pageParams: [undefined] });
  const channels = await listQueueChannels(actor);
  return (
    <section aria-labelledby="queue-title">
      <h1 id="queue-title">{t("title")}</h1>
      <p className="lead">{t("description")}</p>
      <HydrationBoundary state={dehydrate(client)}>
        <QueueTable channels={channels} />
      </HydrationBoundary>
    </section>
  );
}
