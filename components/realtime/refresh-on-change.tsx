"use client";

import { useTransition } from "react";
import { useRouter } from "next/navigation";
import type { ChangeEvent } from "@/lib/queries/change-stream";
import { useChanges } from "./use-change-stream";

type Kind = Extract<ChangeEvent, { type: "change" }>["kind"];

/**
 * For server-rendered lists (decided, inbox): a pushed change of one of `kinds` (proposal status changes by
 * default) re-renders the page on the server, in place; so do `ready` and `resync` (something may have been missed).
 */
export function RefreshOnChange({ kinds = ["proposal"] }: { kinds?: readonly Kind[] }) {
  const router = useRouter();
  const [, startTransition] = useTransition();
  useChanges((e) => {
    if (e.type === "down" || (e.type === "change" && !kinds.includes(e.kind))) return;
    startTransition(() => router.refresh());
  });
  return null;
}
