// Executions (ops view): one queryOptions factory per resource, shared by the server prefetch and the client.
// "Check now" invalidates `executionKeys.all`.
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import type { ExecutionsPage } from "@/lib/server/executions/list-executions";
import type { ExecutionOverview } from "@/lib/server/executions/get-execution-overview";
import type { ExecutionState } from "@/lib/schemas/executions";
import { api } from "./proposals";

export type ExecutionFilters = { state?: ExecutionState };

export const executionKeys = {
  all: ["executions"] as const,
  list: (f: ExecutionFilters) => ["executions", "list", f] as const,
  overview: () => ["executions", "overview"] as const,
};

// Live: polls while the page is open.
export const EXECUTIONS_POLL_MS = 2000;

export const executionsQuery = (f: ExecutionFilters) =>
  infiniteQueryOptions({
    queryKey: executionKeys.list(f),
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams();
      if (f.state) params.set("state", f.state);
      if (pageParam) params.set("cursor", pageParam);
      return api<ExecutionsPage>(`/api/executions?${params.toString()}`);
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: EXECUTIONS_POLL_MS,
  });

export const executionOverviewQuery = () =>
  queryOptions({
    queryKey: executionKeys.overview(),
    queryFn: () => api<ExecutionOverview>("/api/executions/overview"),
    refetchInterval: EXECUTIONS_POLL_MS,
  });

export const checkExecutionNow = (executionId: string) =>
  api<{ executionId: string; status: string; queued: boolean }>(`/api/executions/${encodeURIComponent(executionId)}/check`, { method: "POST", body: "{}" });
