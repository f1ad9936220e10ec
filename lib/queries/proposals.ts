// One queryOptions factory per resource: the key and the fetcher, shared by the server (which seeds the
// cache with the same key) and the client hooks. Mutations invalidate `proposalKeys.all`.
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import type { QueuePage } from "@/lib/server/proposals/list-pending-proposals";
import type { ProposalDetail } from "@/lib/server/proposals/get-proposal";

export type QueueFilters = { channel?: string; flag?: "duplicate" | "velocity" | "two_approvals" };

export const proposalKeys = {
  all: ["proposals"] as const,
  queue: (f: QueueFilters) => ["proposals", "queue", f] as const,
  detail: (id: string) => ["proposals", "detail", id] as const,
};

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown>,
    readonly status: number,
  ) {
    super(message);
  }
}

export async function api<T>(path: string, init?: RequestInit): Promise<T> {
  const res = await fetch(path, { ...init, headers: { "content-type": "application/json", ...(init?.headers ?? {}) }, cache: "no-store" });
  const body = (await res.json().catch(() => ({}))) as { code?: string; error?: { message?: string } & Record<string, unknown> };
  if (!res.ok) throw new ApiError(body.code ?? "internal_error", body.error?.message ?? `Request failed (${res.status})`, body.error ?? {}, res.status);
  return body as T;
}

// The queue is live: it polls while the page is open (and refetches on focus).
export const QUEUE_POLL_MS = 3000;

// Keyset pages: each page carries the cursor of the next one.
export const queueQuery = (f: QueueFilters) =>
  infiniteQueryOptions({
    queryKey: proposalKeys.queue(f),
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams(Object.entries(f).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ""));
      if (pageParam) params.set("cursor", pageParam);
      return api<QueuePage>(`/api/proposals?${params.toString()}`);
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: QUEUE_POLL_MS,
  });

export const proposalQuery = (id: string) =>
  queryOptions({
    queryKey: proposalKeys.detail(id),
    queryFn: () => api<ProposalDetail>(`/api/proposals/${encodeURIComponent(id)}`),
    refetchInterval: 5000,
  });
