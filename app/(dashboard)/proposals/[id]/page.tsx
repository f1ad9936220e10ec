import { notFound } from "next/navigation";
import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { pageActor } from "@/lib/server/auth/page";
import { getProposal } from "@/lib/server/proposals/get-proposal";
import { isAppError } from "@/lib/domain/outcome";
import { proposalKeys } from "@/lib/queries/proposals";
import { ProposalView } from "./_components/proposal-view";

export const dynamic = "force-dynamic";

export default async function ProposalPage({ params }: { params: Promise<{ id: string }> }) {
  const actor = await pageActor("proposal:read");
  const { id } = await params;
  const detail = await getProposal(actor, id).catch((error: unknown) => {
    if (isAppError(error) && error.code === "not_found") notFound();
    throw error;
  });
  const client = new QueryClient();
  client.setQueryData(proposalKeys.detail(id), detail);
  return (
    <HydrationBoundary state={dehydrate(client)}>
      <ProposalView id={id} />
    </HydrationBoundary>
  );
}
