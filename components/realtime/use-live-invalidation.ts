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
    if (e.type === "down" || (e.type === "change" && e.kind === "admin")) return;
    // An approval that leaves the proposal pending still changes its page (approvals so far).
    if (e.type !== "change" || e.kind === "proposal" || e.kind === "approval")
      void client.invalidateQueries({ queryKey: ["proposals"] });
    if (e.type !== "change" || e.kind !== "approval") void client.invalidateQueries({ queryKey: ["executions"] });
  });
}
