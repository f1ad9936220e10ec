"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "@/lib/queries/proposals";
import type { QueuePage } from "@/lib/server/proposals/list-pending-proposals";

/** The next pending proposal after `currentId` (soonest expiry first), for "review next" after a decision. */
export function useNextProposal(currentId: string, enabled: boolean) {
  return useQuery({
    queryKey: ["proposals", "next", currentId],
    queryFn: async () => {
      const page = await api<QueuePage>("/api/proposals?limit=5");
      return page.rows.find((r) => r.id !== currentId) ?? null;
    },
    enabled,
    staleTime: 0,
  });
}
