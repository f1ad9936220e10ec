import type { ReactNode } from "react";
import { redirect } from "next/navigation";
import { can } from "@/lib/domain/permissions";
import { getActor } from "@/lib/server/auth/actor";
import { countPendingProposals } from "@/lib/server/proposals/count-pending-proposals";
import { getInboxForRequest } from "@/lib/server/inbox/get-inbox";
import { AppShell } from "@/components/layout/app-shell";

export const dynamic = "force-dynamic";

// Redirects signed-out visitors; every page below still checks its own permission.
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const actor = await getActor();
  if (!actor) redirect("/sign-in");
  // The inbox badge ("waiting for you") and, for reviewers, the pending count in the tab title, from the first
  // paint (then kept live by the shell). The inbox already counts the pending proposals: one read, not two.
  const inbox = can(actor.roles, "inbox:read") ? await getInboxForRequest(actor) : null;
  const pending = can(actor.roles, "proposal:decide") ? (inbox?.pending ?? (await countPendingProposals(actor))) : null;
  return (
    <AppShell actor={actor} pending={pending} inbox={inbox?.count ?? null}>
      {children}
    </AppShell>
  );
}
