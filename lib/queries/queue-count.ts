// The reviewer's pending count (tab title on every dashboard page): a tiny capped COUNT endpoint, polled
// also while the tab is in the background — that is when a reviewer needs to see work arrive. Plain fetch
// (no React Query): the shell is on every page, including the server-rendered /queue.
import { api } from "./api";

export type PendingCount = { count: number; capped: boolean };

export const PENDING_COUNT_POLL_MS = 5000;

export const fetchPendingCount = () => api("/api/proposals/pending-count", () => import("@/lib/schemas/proposal-dto").then((m) => m.pendingCountDto));
