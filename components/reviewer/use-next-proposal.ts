"use client";

import { useQuery } from "@tanstack/react-query";
import { api, proposalDto } from "@/lib/queries/proposals";

/**
 * The next pending proposal after `currentId` (soonest expiry first), for "review next" after a decision:
 * never one the viewer already approved (nothing left for them to do there), and preferably one no other
 * reviewer has claimed ("I'm reviewing this").
 */
export function useNextProposal(currentId: string, enabled: boolean) {
  return useQuery({
    queryKey: ["proposals", "next", currentId],
    queryFn: async () => {
      const page = await api("/api/proposals?limit=25", proposalDto("queuePageDto"));
      const open = page.rows.filter((r) => r.id !== currentId && !r.approvedByMe);
      return open.find((r) => !r.claim || r.claim.mine) ?? open[0] ?? null;
    },
    enabled,
    staleTime: 0,
  });
}
