// One queryOptions factory per resource: the key and the fetcher, shared by the server (which seeds the
// cache with the same key) and the client hooks. Mutations invalidate `proposalKeys.all`.
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { api } from "./api";

// The DTO schemas (and zod with them) load with the first refetch, not with the page: the server seeds the
// first paint, so validation code is not part of the queue's first-load JavaScript (bench:ui).
const dto = () => import("@/lib/schemas/proposal-dto");

export { api, ApiError } from "./api";

export type QueueFilters = { channel?: string; flag?: "duplicate" | "velocity" | "two_approvals" };

export const proposalKeys = {
  all: ["proposals"] as const,
  queue: (f: QueueFilters) => ["proposals", "queue", f] as const,
  detail: (id: string) => ["proposals", "detail", id] as const,
};

// The queue is live: it polls while the page is open (and refetches on focus).
export const QUEUE_POLL_MS = 3000;

// Keyset pages: each page carries the cursor of the next one.
export const queueQuery = (f: QueueFilters) =>
  infiniteQueryOptions({
    queryKey: proposalKeys.queue(f),
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams(Object.entries(f).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ""));
      if (pageParam) params.set("cursor", pageParam);
      return api(`/api/proposals?${params.toString()}`, () => dto().then((m) => m.queuePageDto));
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: QUEUE_POLL_MS,
  });

export const proposalQuery = (id: string) =>
  queryOptions({
    queryKey: proposalKeys.detail(id),
    queryFn: () => api(`/api/proposals/${encodeURIComponent(id)}`, () => dto().then((m) => m.proposalDetailDto)),
    refetchInterval: 5000,
  });
