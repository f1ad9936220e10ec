"use client";

// The queue's one interactive strip: filters and sort (written to the URL; the server renders the rows),
// and the live state (pushed changes, polling as the fallback: ./use-queue-live.ts). A failing poll turns
// "Live" into "Not updating — retrying" until one succeeds again.
import { useEffect, useRef, useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { LiveStatus } from "@/components/domain/live-status";
import { Button } from "@/components/ui/button";
import { NativeSelect, NativeSelectOption } from "@/components/ui/native-select";
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
      <div className="grid gap-1.5">
        <label htmlFor="filter-channel">{t("filterChannel")}</label>
        <NativeSelect
          ref={channelRef}
          id="filter-channel"
          value={want.channel ?? ""}
          onChange={(e) => set({ channel: e.target.value || null })}
        >
          <NativeSelectOption value="">{t("any")}</NativeSelectOption>
          {channels.map((c) => (
            <NativeSelectOption key={c.slug} value={c.slug}>
              {c.name}
            </NativeSelectOption>
          ))}
        </NativeSelect>
      </div>
      <div className="grid gap-1.5">
        <label htmlFor="filter-flag">{t("filterFlag")}</label>
        <NativeSelect
          ref={flagRef}
          id="filter-flag"
          value={want.flag ?? ""}
          onChange={(e) => set({ flag: (e.target.value || null) as QueueFlag | null })}
        >
          <NativeSelectOption value="">{t("any")}</NativeSelectOption>
          {queueFlags.map((f) => (
            <NativeSelectOption key={f} value={f}>
              {tf(f)}
            </NativeSelectOption>
          ))}
        </NativeSelect>
      </div>
      <div className="grid gap-1.5">
        <label htmlFor="queue-sort">{t("sort")}</label>
        <NativeSelect
          ref={sortRef}
          id="queue-sort"
          value={want.sort}
          onChange={(e) => set({ sort: e.target.value as QueueSort })}
        >
          {queueSorts.map((s) => (
            <NativeSelectOption key={s} value={s}>
              {t(`sorts.${s}`)}
            </NativeSelectOption>
          ))}
        </NativeSelect>
      </div>
      {filtered ? (
        <Button variant="ghost" size="sm" onClick={() => set({ channel: null, flag: null })}>
          {t("clearFilters")}
        </Button>
      ) : null}
      <LiveStatus updatedAt={live.updatedAt} failing={live.failing} pushed={live.pushed} className="sm:ml-auto" />
    </div>
  );
}
