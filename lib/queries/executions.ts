// Executions (ops view): one queryOptions factory per resource, shared by the server prefetch and the client.
// "Check now" invalidates `executionKeys.all`.
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import type { ExecutionState } from "@/lib/domain/execution-state";
import type { ExecutionSort } from "@/lib/domain/execution-state";
import type { ExecutionDetail, ExecutionOverview, ExecutionsPage } from "@/lib/schemas/execution-dto";
import { api, apiTyped } from "./api";
import { pollUnlessPushed } from "./change-stream";

/** The list's filters as the URL holds them (absent = default). */
export type ExecutionFilters = { state?: ExecutionState; q?: string; sort?: ExecutionSort };

export const executionKeys = {
  all: ["executions"] as const,
  list: (f: ExecutionFilters) => ["executions", "list", f] as const,
  overview: () => ["executions", "overview"] as const,
  detail: (id: string) => ["executions", "detail", id] as const,
};

/** Drops defaults so the server prefetch and the client hook build the same key for the same URL. */
export function normalizeExecutionFilters(f: {
  state?: ExecutionState | null;
  q?: string | null;
  sort?: ExecutionSort | null;
}): ExecutionFilters {
  const q = f.q?.trim();
  return {
    ...(f.state ? { state: f.state } : {}),
    ...(q ? { q } : {}),
    ...(f.sort && f.sort !== "newest" ? { sort: f.sort } : {}),
  };
}

// Live: re-read on every pushed change (and polled while the stream is down), so the reads are typed, not
// validated in the browser: the change stream's "ready" re-reads them on every first load, and a schema would
// bring zod with it (lib/queries/api.ts). "Check now", an action, validates its answer (the schema loads then).
export const EXECUTIONS_POLL_MS = 2000;

export const executionsQuery = (f: ExecutionFilters) =>
  infiniteQueryOptions({
    queryKey: executionKeys.list(f),
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams();
      if (f.state) params.set("state", f.state);
      if (f.q) params.set("q", f.q);
      if (f.sort) params.set("sort", f.sort);
      if (pageParam) params.set("cursor", pageParam);
      return apiTyped<ExecutionsPage>(`/api/executions?${params.toString()}`);
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: pollUnlessPushed(EXECUTIONS_POLL_MS),
  });

export const executionOverviewQuery = () =>
  queryOptions({
    queryKey: executionKeys.overview(),
    queryFn: () => apiTyped<ExecutionOverview>("/api/executions/overview"),
    refetchInterval: pollUnlessPushed(EXECUTIONS_POLL_MS),
  });

export const executionDetailQuery = (id: string) =>
  queryOptions({
    queryKey: executionKeys.detail(id),
    queryFn: () => apiTyped<ExecutionDetail>(`/api/executions/${encodeURIComponent(id)}`),
    refetchInterval: pollUnlessPushed(EXECUTIONS_POLL_MS),
  });

export const checkExecutionNow = (executionId: string) =>
  api(
    `/api/executions/${encodeURIComponent(executionId)}/check`,
    () => import("@/lib/schemas/execution-dto").then((m) => m.checkNowResultDto),
    { method: "POST", body: "{}" },
  );

/** Ops record a manual payout's transfer reference (then, at or above four-eyes, a second person confirms). */
export const recordPayout = (executionId: string, reference: string) =>
  api(
    `/api/executions/${encodeURIComponent(executionId)}/payout`,
    () => import("@/lib/schemas/execution-dto").then((m) => m.payoutResultDto),
    { method: "POST", body: JSON.stringify({ reference }) },
  );

export const confirmPayout = (executionId: string) =>
  api(
    `/api/executions/${encodeURIComponent(executionId)}/payout/confirm`,
    () => import("@/lib/schemas/execution-dto").then((m) => m.payoutResultDto),
    { method: "POST", body: "{}" },
  );
