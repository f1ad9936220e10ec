// Executions (ops view): one queryOptions factory per resource, shared by the server prefetch and the client.
// "Check now" invalidates `executionKeys.all`.
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import type { ExecutionState } from "@/lib/domain/execution-state";
import { checkNowResultDto, executionOverviewDto, executionsPageDto } from "@/lib/schemas/execution-dto";
import { api } from "./api";

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
      return api(`/api/executions?${params.toString()}`, executionsPageDto);
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: EXECUTIONS_POLL_MS,
  });

export const executionOverviewQuery = () =>
  queryOptions({
    queryKey: executionKeys.overview(),
    queryFn: () => api("/api/executions/overview", executionOverviewDto),
    refetchInterval: EXECUTIONS_POLL_MS,
  });

export const checkExecutionNow = (executionId: string) =>
  api(`/api/executions/${encodeURIComponent(executionId)}/check`, checkNowResultDto, { method: "POST", body: "{}" });
