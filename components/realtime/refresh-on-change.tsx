"use client";

import { useTransition } from "react";
import { useRouter } from "next/navigation";
import { useChanges } from "./use-change-stream";

/** For server-rendered lists (decided): a pushed change re-renders the page on the server, in place. */
export function RefreshOnChange() {
  const router = useRouter();
  const [, startTransition] = useTransition();
  useChanges((e) => {
    if (e.type === "down" || (e.type === "change" && e.kind !== "proposal")) return;
    startTransition(() => router.refresh());
  });
  return null;
}
