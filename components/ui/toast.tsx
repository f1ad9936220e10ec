"use client";

import { lazy, Suspense, useSyncExternalStore } from "react";
import type { ToasterProps } from "sonner";

// sonner (~11 KiB gzip) loads with the first action that may end in a toast, not with the page (the pages'
// JavaScript budgets, bench:ui). `loadToast()` is called when such an action starts (a decision dialog opens,
// Check now is clicked): it mounts the page's <LazyToaster> and fetches sonner while the request runs, so the
// toaster (and its live region) is in place before the answer. A toast raised before the toaster subscribed
// is still shown: sonner replays the active toasts to a late subscriber.
const Toaster = lazy(() => import("./sonner").then((m) => ({ default: m.Toaster })));

let wanted = false;
const watchers = new Set<() => void>();

/** sonner's `toast`, loaded on first use; mounts the page's toaster. */
export function loadToast(): Promise<typeof import("sonner").toast> {
  if (!wanted) {
    wanted = true;
    for (const w of watchers) w();
  }
  return import("sonner").then((m) => m.toast);
}

function watch(watcher: () => void) {
  watchers.add(watcher);
  return () => watchers.delete(watcher);
}

/** The page's toaster, rendered once `loadToast()` was first called (nothing before). */
export function LazyToaster(props: ToasterProps) {
  const mounted = useSyncExternalStore(
    watch,
    () => wanted,
    () => false,
  );
  return mounted ? (
    <Suspense fallback={null}>
      <Toaster {...props} />
    </Suspense>
  ) : null;
}
