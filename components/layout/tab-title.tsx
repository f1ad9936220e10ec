"use client";

import { useEffect, useRef, useState } from "react";
import { usePathname } from "next/navigation";
import { useTranslations } from "next-intl";
import { fetchPendingCount, PENDING_COUNT_POLL_MS, type PendingCount } from "@/lib/queries/queue-count";
import { SAFETY_POLL_MS } from "@/lib/queries/change-stream";
import { useChanges, useStreamOpen } from "@/components/realtime/use-change-stream";

const COUNT_PREFIX = /^\(\d+\+?\) /;

export type RouteTitle = { prefix: string; label: string };

/**
 * The tab title of every dashboard page. For reviewers it starts with the pending count — "(3) Queue ·
 * Approval Gateway", kept live — so work arriving shows in a background tab. A page without its own title
 * gets "<section> · <app>" from the navigation. Next.js owns <title> (page metadata); this only rewrites it
 * after Next sets it (a MutationObserver on <head>), never fights it.
 */
export function TabTitle({
  appName,
  routes,
  pending,
}: {
  appName: string;
  routes: RouteTitle[];
  pending: PendingCount | null;
}) {
  return pending ? (
    <CountedTitle appName={appName} routes={routes} initial={pending} />
  ) : (
    <Title appName={appName} routes={routes} count={null} />
  );
}

function CountedTitle({ appName, routes, initial }: { appName: string; routes: RouteTitle[]; initial: PendingCount }) {
  const t = useTranslations("shell");
  const [data, setData] = useState(initial);
  const pushed = useStreamOpen();
  const refresh = useRef(() => {});
  useEffect(() => {
    let stopped = false;
    // A failed read keeps the last count (the queue page says when its data stops updating).
    refresh.current = () =>
      void fetchPendingCount().then(
        (next) => void (stopped || setData((d) => (d.count === next.count && d.capped === next.capped ? d : next))),
        () => undefined,
      );
    const id = setInterval(() => refresh.current(), pushed ? SAFETY_POLL_MS : PENDING_COUNT_POLL_MS);
    return () => {
      stopped = true;
      clearInterval(id);
    };
  }, [pushed]);
  useChanges((e) => {
    if (e.type !== "down" && (e.type !== "change" || e.kind === "proposal")) refresh.current();
  });
  const count =
    data.count === 0 ? null : data.capped ? t("countCapped", { count: data.count - 1 }) : String(data.count);
  return <Title appName={appName} routes={routes} count={count} />;
}

function Title({ appName, routes, count }: { appName: string; routes: RouteTitle[]; count: string | null }) {
  const t = useTranslations("shell");
  const pathname = usePathname();
  const state = useRef({ fallback: "" });

  useEffect(() => {
    const s = state.current;
    function apply() {
      let base = document.title.replace(COUNT_PREFIX, "");
      // The bare product name, or the fallback written here earlier: this page has no title of its own.
      if (base === appName || (s.fallback && base === s.fallback)) {
        const route = routes
          .filter((r) => pathname === r.prefix || pathname.startsWith(r.prefix + "/"))
          .sort((a, b) => b.prefix.length - a.prefix.length)[0];
        s.fallback = route ? `${route.label} · ${appName}` : "";
        base = s.fallback || appName;
      }
      const want = count ? t("pendingTitle", { count, title: base }) : base;
      if (document.title !== want) document.title = want;
    }
    apply();
    // Next.js rewrites <title> on navigation: re-apply after it (our own write changes nothing the second time).
    const observer = new MutationObserver(apply);
    observer.observe(document.head, { subtree: true, childList: true, characterData: true });
    return () => observer.disconnect();
  }, [pathname, count, appName, routes, t]);
  return null;
}
