"use client";

// The shell's inbox badge ("waiting for you", docs/design.md "Inbox"): ONE store per page, however many
// copies of the navigation render it (sidebar, phone sheet). It re-reads GET /api/inbox when a pushed change
// arrives (any kind: an approval, an admin change, an execution) and polls as the other live parts do —
// rarely while the stream is open, at INBOX_POLL_MS while it is down. Plain fetch, the count checked by hand
// (count-answers.ts: zod would join every page's first load, the stream's "ready" triggers the first read).
import { readInboxCount } from "./count-answers";
import { isStreamOpen, SAFETY_POLL_MS, subscribeChanges, watchStreamOpen } from "./change-stream";

export const INBOX_POLL_MS = 5_000;
/** Pushed changes come in bursts (an approval, its proposal, its execution): read once after the burst. */
const COALESCE_MS = 250;

let count: number | null = null;
const watchers = new Set<() => void>();
let stopLive: (() => void) | null = null;

function set(next: number) {
  if (next === count) return;
  count = next;
  for (const w of watchers) w();
}

/** The count, its shape checked. Throws on a failed request or an answer of the wrong shape. */
export async function fetchInboxCount(): Promise<number> {
  const res = await fetch("/api/inbox", { cache: "no-store" });
  if (!res.ok) throw new Error(`inbox answered ${res.status}`);
  const count = readInboxCount(await res.json());
  if (count === null) throw new Error("inbox: unexpected answer");
  return count;
}

function startLive(): () => void {
  let stopped = false;
  let pending: ReturnType<typeof setTimeout> | null = null;
  // A failed read keeps the last count.
  const refresh = () =>
    void fetchInboxCount().then(
      (n) => void (stopped || set(n)),
      () => undefined,
    );
  const soon = () => {
    pending ??= setTimeout(() => {
      pending = null;
      refresh();
    }, COALESCE_MS);
  };
  let timer: ReturnType<typeof setInterval> | null = null;
  const schedule = () => {
    if (timer) clearInterval(timer);
    timer = setInterval(refresh, isStreamOpen() ? SAFETY_POLL_MS : INBOX_POLL_MS);
  };
  schedule();
  const unwatch = watchStreamOpen(schedule);
  const unsubscribe = subscribeChanges((e) => {
    if (e.type !== "down") soon();
  });
  return () => {
    stopped = true;
    if (timer) clearInterval(timer);
    if (pending) clearTimeout(pending);
    unwatch();
    unsubscribe();
  };
}

/** For useSyncExternalStore: starts the live reads with the first watcher, stops them with the last. */
export function watchInboxCount(watcher: () => void): () => void {
  watchers.add(watcher);
  stopLive ??= startLive();
  return () => {
    watchers.delete(watcher);
    if (watchers.size) return;
    stopLive?.();
    stopLive = null;
  };
}

/** The live count, or `initial` (the server's) until the first read answers. */
export const inboxCountOr = (initial: number) => () => count ?? initial;
