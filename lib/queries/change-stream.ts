"use client";

// The browser's one push channel (server-sent events from /api/stream/changes), shared by every component of
// the page that listens: the queue, the tab title, React Query's cache. While it is open, pages poll rarely
// (a safety net); when it drops they poll at their usual pace until it is back (polling is the fallback).

export type ChangeEvent =
  | { type: "change"; kind: "proposal" | "execution"; proposalId: string; status: string }
  /** An approval was recorded (the proposal may stay pending: it then waits for a second reviewer). */
  | { type: "change"; kind: "approval"; proposalId: string }
  /** An admin change or policy version was proposed or decided (what waits for a second admin changed). */
  | { type: "change"; kind: "admin" }
  /** The stream is (again) live: anything may have changed while it was not, re-read. */
  | { type: "ready" }
  /** The server's listener reconnected: changes may have been missed, re-read. */
  | { type: "resync" }
  | { type: "down" };

type Listener = (event: ChangeEvent) => void;

const STREAM_URL = "/api/stream/changes";
/** After a refused or failed stream (the browser gave up on it), try again this much later. */
const REOPEN_MS = 5_000;
/** While the stream is open a page still re-reads this often, for what the stream does not announce. */
export const SAFETY_POLL_MS = 30_000;

const listeners = new Set<Listener>();
const openWatchers = new Set<() => void>();
let source: EventSource | null = null;
let open = false;
let reopen: ReturnType<typeof setTimeout> | null = null;

function setOpen(value: boolean) {
  if (open === value) return;
  open = value;
  for (const w of openWatchers) w();
}
function emit(event: ChangeEvent) {
  for (const l of listeners) l(event);
}

function connect() {
  if (source || typeof EventSource === "undefined") return;
  const es = new EventSource(STREAM_URL);
  source = es;
  es.addEventListener("ready", () => {
    setOpen(true);
    emit({ type: "ready" });
  });
  es.addEventListener("resync", () => emit({ type: "resync" }));
  es.addEventListener("change", (m) => {
    const data = JSON.parse((m as MessageEvent<string>).data) as Omit<Extract<ChangeEvent, { type: "change" }>, "type">;
    emit({ type: "change", ...data } as ChangeEvent);
  });
  es.onerror = () => {
    setOpen(false);
    emit({ type: "down" });
    // The browser reconnects by itself after a dropped connection; after a refusal (401, 5xx) it gives up.
    if (es.readyState === EventSource.CLOSED && source === es) {
      source = null;
      reopen ??= setTimeout(() => {
        reopen = null;
        if (listeners.size) connect();
      }, REOPEN_MS);
    }
  };
}

/** Calls `listener` for every pushed event; opens the stream with the first listener, closes it with the last. */
export function subscribeChanges(listener: Listener): () => void {
  listeners.add(listener);
  connect();
  // Joining a stream another component opened (the tab title opens it first): that stream's "ready" is past, and a
  // change pushed between this page's render and now reached only the listeners there were. Tell this one it is
  // live, so it re-reads what it may have missed, as every listener does on "ready".
  if (open) queueMicrotask(() => listeners.has(listener) && listener({ type: "ready" }));
  return () => {
    listeners.delete(listener);
    if (listeners.size) return;
    source?.close();
    source = null;
    setOpen(false);
  };
}

/** Whether pushed changes arrive right now (for useSyncExternalStore and refetchInterval). */
export const isStreamOpen = () => open;
export function watchStreamOpen(watcher: () => void): () => void {
  openWatchers.add(watcher);
  return () => openWatchers.delete(watcher);
}

/** A refetch interval that polls at `ms` only while the stream is down. */
export const pollUnlessPushed = (ms: number) => () => (open ? SAFETY_POLL_MS : ms);
