import type { SearchParams } from "nuqs/server";
import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { getTranslations } from "next-intl/server";
import { can } from "@/lib/domain/permissions";
import { pageActor } from "@/lib/server/auth/page";
import { listExecutions } from "@/lib/server/executions/list-executions";
import { getExecutionOverview } from "@/lib/server/executions/get-execution-overview";
import { executionKeys, normalizeExecutionFilters } from "@/lib/queries/executions";
import { Section } from "@/components/page/section";
import { ExecutionsView } from "./_components/executions-view";
import { loadExecutionsParams } from "./_components/executions-params";
import { titleMetadata } from "@/components/page/title-metadata";

export const dynamic = "force-dynamic";

export const generateMetadata = titleMetadata("executions");

export default async function ExecutionsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const actor = await pageActor("executions:read");
  const t = await getTranslations("executions");
  // Filters come from the URL, so a reload or a shared link shows the same list from the first paint.
  const filters = normalizeExecutionFilters(await loadExecutionsParams(searchParams));
  // Seed the client cache under the keys the client hooks use: the first paint has data, then it polls.
  // A search the server refuses (too long) leaves the list to the client, which shows the error.
  const client = new QueryClient();
  const [page, overview] = await Promise.all([
    listExecutions(actor, filters).catch(() => null),
    getExecutionOverview(actor),
  ]);
  if (page) client.setQueryData(executionKeys.list(filters), { pages: [page], pageParams: [undefined] });
  client.setQueryData(executionKeys.overview(), overview);
  return (
    <Section titleId="executions-title" title={t("title")} level={1} lead={t("description")}>
      <HydrationBoundary state={dehydrate(client)}>
        <ExecutionsView canReconcile={can(actor.roles, "executions:reconcile")} />
      </HydrationBoundary>
    </Section>
  );
}
