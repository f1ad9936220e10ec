"use client";

import { useEffect, useRef, useSyncExternalStore } from "react";
import { isStreamOpen, subscribeChanges, watchStreamOpen, type ChangeEvent } from "@/lib/queries/change-stream";

/** Calls the latest `onEvent` for every pushed event while the component is mounted. */
export function useChanges(onEvent: (event: ChangeEvent) => void): void {
  const latest = useRef(onEvent);
  useEffect(() => {
    latest.current = onEvent;
  });
  useEffect(() => subscribeChanges((e) => latest.current(e)), []);
}

/** Whether pushed changes arrive right now (false on the server and until the stream says "ready"). */
export function useStreamOpen(): boolean {
  return useSyncExternalStore(watchStreamOpen, isStreamOpen, () => false);
}
