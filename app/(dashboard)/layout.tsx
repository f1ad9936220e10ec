import type { ReactNode } from "react";
import { redirect } from "next/navigation";
import { can } from "@/lib/domain/permissions";
import { getActor } from "@/lib/server/auth/actor";
import { countPendingProposals } from "@/lib/server/proposals/count-pending-proposals";
import { getInbox } from "@/lib/server/inbox/get-inbox";
import { AppShell } from "@/components/layout/app-shell";

export const dynamic = "force-dynamic";

// Redirects signed-out visitors; every page below still checks its own permission.
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const actor = await getActor();
  if (!actor) redirect("/sign-in");
  // Reviewers see the pending count in the tab title from the first paint (then kept live by the shell).
  const pending = can(actor.roles, "proposal:decide") ? await countPendingProposals(actor) : null;
  // The inbox badge ("waiting for you") from the first paint too, then kept live by the shell.
  const inbox = can(actor.roles, "inbox:read") ? (await getInbox(actor)).count : null;
  return (
    <AppShell actor={actor} pending={pending} inbox={inbox}>
      {children}
    </AppShell>
  );
}
