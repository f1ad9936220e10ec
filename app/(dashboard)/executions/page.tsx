import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { getTranslations } from "next-intl/server";
import { can } from "@/lib/domain/permissions";
import { pageActor } from "@/lib/server/auth/page";
import { listExecutions } from "@/lib/server/executions/list-executions";
import { getExecutionOverview } from "@/lib/server/executions/get-execution-overview";
import { executionKeys } from "@/lib/queries/executions";
import { ExecutionsView } from "./_components/executions-view";

export const dynamic = "force-dynamic";

export default async function ExecutionsPage() {
  const actor = await pageActor("executions:read");
  const t = await getTranslations("executions");
  // Seed the client cache under the keys the client hooks use: the first paint has data, then it polls.
  const client = new QueryClient();
  const [page, overview] = await Promise.all([listExecutions(actor, {}), getExecutionOverview(actor)]);
  client.setQueryData(executionKeys.list({}), { pages: [page], pageParams: [undefined] });
  client.setQueryData(executionKeys.overview(), overview);
  return (
    <section aria-labelledby="executions-title">
      <h1 id="executions-title">{t("title")}</h1>
      <p className="lead">{t("description")}</p>
      <HydrationBoundary state={dehydrate(client)}>
        <ExecutionsView canReconcile={can(actor.roles, "executions:reconcile")} />
      </HydrationBoundary>
    </section>
  );
}
