// One queryOptions factory per resource: the key and the fetcher, shared by the server (which seeds the
// cache with the same key) and the client hooks. Mutations invalidate `proposalKeys.all`.
import { queryOptions } from "@tanstack/react-query";
import { api } from "./api";
import { pollUnlessPushed } from "./change-stream";

// The DTO schemas (and zod with them) load with the first refetch, not with the page: the server seeds the
// first paint, so validation code is not part of a page's first-load JavaScript (bench:ui).
const dto = () => import("@/lib/schemas/proposal-dto");

export { api, ApiError } from "./api";

export type QueueFilters = { channel?: string; flag?: "duplicate" | "velocity" | "two_approvals" };

export const proposalKeys = {
  all: ["proposals"] as const,
  queue: (f: QueueFilters) => ["proposals", "queue", f] as const,
  detail: (id: string) => ["proposals", "detail", id] as const,
};

export const proposalQuery = (id: string) =>
  queryOptions({
    queryKey: proposalKeys.detail(id),
    queryFn: () => api(`/api/proposals/${encodeURIComponent(id)}`, () => dto().then((m) => m.proposalDetailDto)),
    refetchInterval: pollUnlessPushed(5000),
  });
