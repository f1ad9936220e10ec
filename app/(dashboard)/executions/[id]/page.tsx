import type { Metadata } from "next";
import { cache } from "react";
import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { getTranslations } from "next-intl/server";
import { can } from "@/lib/domain/permissions";
import { pageActor } from "@/lib/server/auth/page";
import { orNotFound } from "@/app/(dashboard)/or-not-found";
import { getExecutionDetail } from "@/lib/server/executions/get-execution-detail";
import { executionKeys } from "@/lib/queries/executions";
import { ExecutionDetailView } from "./_components/execution-detail-view";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }> };

/** Another tenant's execution, an unknown or a malformed id: the same 404, nothing about it. Once per request. */
const load = cache(async (id: string) => {
  const actor = await pageActor("executions:read");
  const detail = await orNotFound(getExecutionDetail(actor, { executionId: id }), ["not_found", "invalid_arguments"]);
  return { actor, detail };
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const t = await getTranslations("executions");
  const { detail } = await load((await params).id);
  return { title: t("detail.metaTitle", { order: detail.orderNumber }) };
}

export default async function ExecutionPage({ params }: Props) {
  const { id } = await params;
  const { actor, detail } = await load(id);
  const client = new QueryClient();
  client.setQueryData(executionKeys.detail(id), detail);
  return (
    <HydrationBoundary state={dehydrate(client)}>
      <ExecutionDetailView
        id={id}
        canReconcile={can(actor.roles, "executions:reconcile")}
        canPayout={can(actor.roles, "executions:payout")}
      />
    </HydrationBoundary>
  );
}
