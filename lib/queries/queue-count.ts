// The reviewer's pending count (tab title on every dashboard page): a tiny capped COUNT endpoint, polled
// also while the tab is in the background — that is when a reviewer needs to see work arrive. Plain fetch
// (no React Query): the shell is on every page, including the server-rendered /queue.
import { readPendingCount } from "./count-answers";

export type PendingCount = { count: number; capped: boolean };

export const PENDING_COUNT_POLL_MS = 5000;

/**
 * The count, its shape checked (count-answers.ts: not with zod, which would join every page's first load).
 * Throws on a failed request or an answer of the wrong shape; the caller keeps the last count then. Not api():
 * its error mapping is not needed here and it would add to every page's first load (bench:ui).
 */
export async function fetchPendingCount(): Promise<PendingCount> {
  const res = await fetch("/api/proposals/pending-count", { cache: "no-store" });
  if (!res.ok) throw new Error(`pending-count answered ${res.status}`);
  const count = readPendingCount(await res.json());
  if (!count) throw new Error("pending-count: unexpected answer");
  return count;
}
