"use client";

// The queue's freshness. Pushed: a proposal's status change (a new proposal, a decision, an expiry) arrives
// over the page's change stream and re-renders the list on the server at once. Polled: while the stream is
// down, the first page is fetched every few seconds and compared by fingerprint with what the server
// rendered, and the list is re-rendered only when it changed (also once when the stream comes back, and
// every 30 s while it is open, for what it does not announce, like a first of two approvals).
import { useEffect, useRef, useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { fingerprint } from "@/lib/queries/queue-fingerprint";
import { SAFETY_POLL_MS } from "@/lib/queries/change-stream";
import { useChanges, useStreamOpen } from "@/components/realtime/use-change-stream";

export const QUEUE_POLL_MS = 3000;

export function useQueueLive({
  channel,
  flag,
  print,
  renderedAt,
}: {
  channel: string | null;
  flag: string | null;
  print: string;
  renderedAt: number;
}) {
  const router = useRouter();
  const [, startTransition] = useTransition();
  const pushed = useStreamOpen();
  const [live, setLive] = useState({ updatedAt: renderedAt, failing: false });
  const asked = useRef<string | null>(null);
  const check = useRef<() => Promise<void>>(async () => undefined);

  useEffect(() => {
    const q = new URLSearchParams();
    if (channel) q.set("channel", channel);
    if (flag) q.set("flag", flag);
    let stopped = false;
    check.current = async () => {
      try {
        const res = await fetch(`/api/proposals?${q.toString()}`, { cache: "no-store" });
        if (!res.ok) throw new Error(String(res.status));
        const now = fingerprint(await res.text());
        if (stopped) return;
        setLive({ updatedAt: Date.now(), failing: false });
        // Refresh once per new answer: a server render of the same data brings the same fingerprint.
        if (now !== print && now !== asked.current) {
          asked.current = now;
          startTransition(() => router.refresh());
        }
      } catch {
        if (!stopped) setLive((l) => ({ ...l, failing: true }));
      }
    };
    const id = setInterval(() => void check.current(), pushed ? SAFETY_POLL_MS : QUEUE_POLL_MS);
    return () => {
      stopped = true;
      clearInterval(id);
    };
  }, [channel, flag, print, router, pushed]);

  useChanges((e) => {
    if (e.type === "down" || (e.type === "change" && e.kind !== "proposal")) return;
    if (e.type === "change") {
      // A proposal changed status: the pending list changed; render it now (no fingerprint round trip).
      setLive({ updatedAt: Date.now(), failing: false });
      startTransition(() => router.refresh());
    } else void check.current();
  });
  return { ...live, pushed };
}
