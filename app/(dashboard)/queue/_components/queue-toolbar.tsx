"use client";

// The queue's one interactive strip: filters and sort (written to the URL; the server renders the rows),
// and the live state (pushed changes, polling as the fallback: ./use-queue-live.ts). A failing poll turns
// "Live" into "Not updating — retrying" until one succeeds again.
import { useEffect, useRef, useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { LiveStatus } from "@/components/domain/live-status";
import { anyOption, LabelledSelect } from "@/components/forms/labelled-select";
import { Button } from "@/components/ui/button";
import { useQueueLive } from "./use-queue-live";
import { queueFlags, queueSorts, type QueueFlag, type QueueSort } from "./queue-options";

type Params = { channel: string | null; flag: QueueFlag | null; sort: QueueSort };

function href(p: Params): string {
  const q = new URLSearchParams();
  if (p.channel) q.set("channel", p.channel);
  if (p.flag) q.set("flag", p.flag);
  if (p.sort !== "expiry") q.set("sort", p.sort);
  const s = q.toString();
  return s ? `/queue?${s}` : "/queue";
}

export function QueueToolbar({
  channels,
  params,
  print,
  renderedAt,
}: {
  channels: { slug: string; name: string }[];
  params: Params;
  /** Fingerprint of the first page the server rendered (lib/queries/queue-fingerprint). */
  print: string;
  renderedAt: number;
}) {
  const t = useTranslations("queue");
  const tf = useTranslations("flags");
  const router = useRouter();
  const [, startTransition] = useTransition();
  // What the reviewer chose, ahead of the server's answer (two quick changes must both reach the URL).
  const [want, setWant] = useState(params);
  const [seen, setSeen] = useState(params);
  if (seen.channel !== params.channel || seen.flag !== params.flag || seen.sort !== params.sort) {
    setSeen(params); // the URL changed from elsewhere (back button, a link): follow it
    setWant(params);
  }
  const set = (patch: Partial<Params>) => {
    const next = { ...want, ...patch };
    setWant(next);
    startTransition(() => router.replace(href(next), { scroll: false }));
  };

  // A choice made before the page was interactive (the selects are server-rendered; React does not replay a
  // select's change from before hydration) is shown by the browser but reached no handler: apply it now.
  const channelRef = useRef<HTMLSelectElement>(null);
  const flagRef = useRef<HTMLSelectElement>(null);
  const sortRef = useRef<HTMLSelectElement>(null);
  const first = useRef(params);
  useEffect(() => {
    const shown = {
      channel: channelRef.current?.value || null,
      flag: (flagRef.current?.value || null) as QueueFlag | null,
      sort: (sortRef.current?.value || first.current.sort) as QueueSort,
    };
    const p = first.current;
    if (shown.channel !== p.channel || shown.flag !== p.flag || shown.sort !== p.sort) {
      setWant(shown);
      startTransition(() => router.replace(href(shown), { scroll: false }));
    }
  }, [router]);

  const live = useQueueLive({ channel: params.channel, flag: params.flag, print, renderedAt });

  const filtered = !!(want.channel || want.flag);
  return (
    <div className="mb-4 flex flex-wrap items-end gap-3" role="search">
      <LabelledSelect
        ref={channelRef}
        id="filter-channel"
        label={t("filterChannel")}
        value={want.channel ?? ""}
        onChange={(v) => set({ channel: v || null })}
        options={[{ value: "", label: t("any") }, ...channels.map((c) => ({ value: c.slug, label: c.name }))]}
      />
      <LabelledSelect
        ref={flagRef}
        id="filter-flag"
        label={t("filterFlag")}
        value={want.flag ?? ""}
        onChange={(v) => set({ flag: (v || null) as QueueFlag | null })}
        options={anyOption(t("any"), queueFlags, tf)}
      />
      <LabelledSelect
        ref={sortRef}
        id="queue-sort"
        label={t("sort")}
        value={want.sort}
        onChange={(v) => set({ sort: v as QueueSort })}
        options={queueSorts.map((s) => ({ value: s, label: t(`sorts.${s}`) }))}
      />
      {filtered ? (
        <Button variant="ghost" size="sm" onClick={() => set({ channel: null, flag: null })}>
          {t("clearFilters")}
        </Button>
      ) : null}
      <LiveStatus updatedAt={live.updatedAt} failing={live.failing} pushed={live.pushed} className="sm:ml-auto" />
    </div>
  );
}
