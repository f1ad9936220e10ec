// One queryOptions factory per resource: the key and the fetcher, shared by the server (which seeds the
// cache with the same key) and the client hooks. Mutations invalidate `proposalKeys.all`.
import { queryOptions } from "@tanstack/react-query";
import type { ProposalPage } from "@/lib/schemas/proposal-dto";
import { apiTyped } from "./api";
import { pollUnlessPushed } from "./change-stream";

/**
 * The DTO schemas (and zod with them) load with the first action that needs one (an approval's answer, the
 * next proposal after a decision), not with the page: for `api(path, proposalDto("approvalResultDto"))`.
 */
export const proposalDto =
  <K extends keyof typeof import("@/lib/schemas/proposal-dto")>(name: K) =>
  () =>
    import("@/lib/schemas/proposal-dto").then((m) => m[name]);

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
    // Typed, not validated in the browser: the change stream's "ready" re-reads it on every first load, and a
    // schema would bring zod with it (lib/queries/api.ts).
    queryFn: () => apiTyped<ProposalPage>(`/api/proposals/${encodeURIComponent(id)}`),
    refetchInterval: pollUnlessPushed(5000),
  });
