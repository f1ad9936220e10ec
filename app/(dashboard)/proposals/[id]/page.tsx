import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { pageActor } from "@/lib/server/auth/page";
import { orNotFound } from "@/app/(dashboard)/or-not-found";
import { getProposal } from "@/lib/server/proposals/get-proposal";
import { proposalKeys } from "@/lib/queries/proposals";
import { ProposalView } from "./_components/proposal-view";

export const dynamic = "force-dynamic";

export default async function ProposalPage({ params }: { params: Promise<{ id: string }> }) {
  const actor = await pageActor("proposal:read");
  const { id } = await params;
  const detail = await orNotFound(getProposal(actor, id));
  const client = new QueryClient();
  client.setQueryData(proposalKeys.detail(id), detail);
  return (
    <HydrationBoundary state={dehydrate(client)}>
      <ProposalView id={id} />
    </HydrationBoundary>
  );
}
