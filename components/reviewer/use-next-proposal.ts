"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "@/lib/queries/proposals";
import { queuePageDto } from "@/lib/schemas/proposal-dto";

/** The next pending proposal after `currentId` (soonest expiry first), for "review next" after a decision. */
export function useNextProposal(currentId: string, enabled: boolean) {
  return useQuery({
    queryKey: ["proposals", "next", currentId],
    queryFn: async () => {
      const page = await api("/api/proposals?limit=5", queuePageDto);
      return page.rows.find((r) => r.id !== currentId) ?? null;
    },
    enabled,
    staleTime: 0,
  });
}
