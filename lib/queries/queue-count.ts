// The reviewer's pending count (tab title on every dashboard page): a tiny capped COUNT endpoint, polled
// also while the tab is in the background — that is when a reviewer needs to see work arrive.
import { queryOptions } from "@tanstack/react-query";
import { api } from "./api";

export type PendingCount = { count: number; capped: boolean };

/** Under proposalKeys.all, so every proposal mutation (which invalidates ["proposals"]) refreshes it too. */
export const pendingCountKey = ["proposals", "pending-count"] as const;
export const PENDING_COUNT_POLL_MS = 5000;

export const pendingCountQuery = (initial: PendingCount) =>
  queryOptions({
    queryKey: pendingCountKey,
    queryFn: () => api("/api/proposals/pending-count", () => import("@/lib/schemas/proposal-dto").then((m) => m.pendingCountDto)),
    initialData: initial,
    initialDataUpdatedAt: () => Date.now(),
    refetchInterval: PENDING_COUNT_POLL_MS,
    refetchIntervalInBackground: true,
  });
