"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useChanges } from "./use-change-stream";

/**
 * For the pages that keep their data in React Query (proposal, executions): pushed changes mark the cached
 * proposals and executions stale, and React Query re-reads the ones on screen through their own
 * (authorized) routes. Called by those pages only, so roles without the stream (auditors) never open it.
 */
export function useLiveInvalidation(): void {
  const client = useQueryClient();
  useChanges((e) => {
    if (e.type === "down") return;
    if (e.type !== "change" || e.kind === "proposal") void client.invalidateQueries({ queryKey: ["proposals"] });
    void client.invalidateQueries({ queryKey: ["executions"] });
  });
}
