"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useState, useSyncExternalStore, type FormEvent, type ReactNode } from "react";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useQueryStates } from "nuqs";
import { useFormatter, useTranslations } from "next-intl";
import { auditActionGroups, auditActions, auditCodeKey, auditOutcomes } from "@/lib/domain/audit-actions";
import { canonicalTimeZone, wallClockOf } from "@/lib/domain/local-time";
import { auditQueryString, auditSearchQuery } from "@/lib/queries/audit";
import type { AuditEventViewDto } from "@/lib/schemas/audit-dto";
import { Badge } from "@/components/ui/badge";
import { Button, buttonVariants } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { NativeSelect, NativeSelectOption } from "@/components/ui/native-select";
import { NativeSelectOptGroup } from "@/components/ui/native-select-optgroup";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow, type Column } from "@/components/ui/table";
import { auditFilterFields, auditFiltersOf, auditParams, type AuditParams } from "./audit-params";
import { useClock } from "@/components/ui/use-clock";
import { instantFormat } from "@/lib/domain/clock";

const noSubscribe = () => () => {};
/** The browser's IANA zone (null while rendering on the server: no zone is guessed there). */
function useBrowserZone(): string | null {
  return useSyncExternalStore(
    noSubscribe,
    () => canonicalTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone) ?? "UTC",
    () => null,
  );
}

/** An instant in the search's zone (the one the date filters are read in, the viewer's unless the link
 *  names another), labelled (lib/domain/clock.ts); the tenant's zone and UTC on hover. */
function AuditTime({ value, zone }: { value: string; zone: string }) {
  const format = useFormatter();
  const clock = useClock();
  const date = new Date(value);
  return (
    <time
      dateTime={date.toISOString()}
      title={clock.title(date)}
      className="whitespace-nowrap"
      suppressHydrationWarning
    >
      {format.dateTime(date, { ...instantFormat, timeZone: zone })}
    </time>
  );
}

type Labels = {
  action: (code: string) => string;
  outcome: (code: string) => string;
  actorType: (type: string) => string;
};

function useLabels(): Labels {
  const t = useTranslations("audit");
  return useMemo(
    () => ({
      action: (code) => (t.has(`actions.${auditCodeKey(code)}`) ? t(`actions.${auditCodeKey(code)}`) : code),
      outcome: (code) => (t.has(`outcomes.${auditCodeKey(code)}`) ? t(`outcomes.${auditCodeKey(code)}`) : code),
      actorType: (type) => (t.has(`actorTypes.${auditCodeKey(type)}`) ? t(`actorTypes.${auditCodeKey(type)}`) : type),
    }),
    [t],
  );
}

function Actor({ e, labels }: { e: AuditEventViewDto; labels: Labels }) {
  const t = useTranslations("audit");
  const title = e.actorId
    ? t("actorIdHint", { type: labels.actorType(e.actorType), id: e.actorId })
    : labels.actorType(e.actorType);
  return (
    <span title={title} data-actor-id={e.actorId ?? undefined} className="break-words">
      {e.actorName ?? (e.actorType === "system" && e.actorId ? e.actorId : labels.actorType(e.actorType))}
      {e.actorName ? (
        <span className="block text-xs text-muted-foreground">{labels.actorType(e.actorType)}</span>
      ) : null}
    </span>
  );
}

function Outcome({ code, labels }: { code: string; labels: Labels }) {
  const fine = ["ok", "found", "succeeded", "approval_required", "result_pending"].includes(code);
  return (
    <Badge
      variant={fine ? "secondary" : "outline"}
      title={code}
      data-outcome={code}
      className={fine ? undefined : "border-warning-foreground/40 bg-warning text-warning-foreground"}
    >
      {labels.outcome(code)}
    </Badge>
  );
}

export function AuditSearch() {
  const t = useTranslations("audit");
  const labels = useLabels();
  const router = useRouter();
  const [params, setParams] = useQueryStates(auditParams);
  const browserZone = useBrowserZone();
  const zone = params.tz ?? browserZone ?? "UTC";
  const filters = auditFiltersOf(params, zone);
  const active = auditFilterFields.some((k) => !!params[k]);

  // The zone travels in the URL, so a reload or a shared link reads the same dates the same way.
  useEffect(() => {
    if (!params.tz && browserZone) void setParams({ tz: browserZone }, { history: "replace" });
  }, [params.tz, browserZone, setParams]);

  const [draft, setDraft] = useState<AuditParams>(params);
  // The form follows the URL when it changes from outside (back / forward, "Clear").
  const urlKey = auditFilterFields.map((k) => params[k] ?? "").join("\u0000");
  const [seenKey, setSeenKey] = useState(urlKey);
  if (seenKey !== urlKey) {
    setSeenKey(urlKey);
    setDraft(params);
  }

  const search = useInfiniteQuery(auditSearchQuery(filters));
  const events = useMemo(() => search.data?.pages.flatMap((p) => p.events) ?? [], [search.data]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const next = Object.fromEntries(auditFilterFields.map((k) => [k, draft[k]?.trim() || null])) as Record<
      (typeof auditFilterFields)[number],
      string | null
    >;
    // A bare trace id is the trace page (what the proposal page's trace link opens too).
    if (next.traceId && auditFilterFields.every((k) => k === "traceId" || !next[k])) {
      router.push(`/audit/traces/${encodeURIComponent(next.traceId)}`);
      return;
    }
    void setParams({ ...next, tz: zone });
  };
  const clear = () => void setParams(Object.fromEntries(auditFilterFields.map((k) => [k, null])));
  // Quick ranges, in the zone the dates are read in: they fill the fields; Search applies them.
  const preset = (range: "hour" | "today" | "week") => {
    const now = new Date();
    const today = `${wallClockOf(now, zone).slice(0, 10)}T00:00`;
    const from =
      range === "hour"
        ? wallClockOf(new Date(now.getTime() - 3_600_000), zone)
        : range === "today"
          ? today
          : wallClockOf(new Date(now.getTime() - 7 * 86_400_000), zone);
    setDraft({ ...draft, from, to: "" });
  };

  const columns = useMemo<Column<AuditEventViewDto>[]>(
    () => [
      { id: "time", header: t("colTime"), cell: (e) => <AuditTime value={e.occurredAt} zone={zone} /> },
      { id: "actor", header: t("colActor"), cell: (e) => <Actor e={e} labels={labels} /> },
      {
        id: "action",
        header: t("colAction"),
        cell: (e) => (
          <span title={e.action} data-action={e.action}>
            {labels.action(e.action)}
          </span>
        ),
      },
      { id: "outcome", header: t("colOutcome"), cell: (e) => <Outcome code={e.outcome} labels={labels} /> },
      {
        id: "trace",
        header: t("colTrace"),
        cell: (e) => (
          <Link
            href={`/audit/traces/${encodeURIComponent(e.traceId)}`}
            aria-label={t("openTrace", { traceId: e.traceId })}
            className="font-mono text-xs break-all"
          >
            {e.traceId}
          </Link>
        ),
      },
      {
        id: "proposal",
        header: t("colProposal"),
        cell: (e) =>
          e.proposalId ? (
            <span className="font-mono text-xs" title={e.proposalId}>
              {e.proposalId.slice(0, 8)}…
            </span>
          ) : (
            "—"
          ),
      },
      {
        id: "leaf",
        header: t("colSeq"),
        cell: (e) =>
          e.leafIndex ?? (
            <span title={t("pendingHint")} className="text-muted-foreground">
              {t("pending")}
            </span>
          ),
      },
    ],
    [t, labels, zone],
  );
  const rows = events;

  const text = (name: "traceId" | "actor" | "proposalId" | "subject", hint?: string) => (
    <div className="grid min-w-0 gap-1.5">
      <label htmlFor={`audit-${name}`}>{t(name)}</label>
      <Input
        id={`audit-${name}`}
        name={name}
        value={draft[name] ?? ""}
        onChange={(e) => setDraft({ ...draft, [name]: e.target.value })}
        autoComplete="off"
        aria-describedby={hint ? `audit-${name}-hint` : undefined}
      />
      {hint ? (
        <small id={`audit-${name}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </small>
      ) : null}
    </div>
  );
  const date = (name: "from" | "to") => (
    <div className="grid min-w-0 gap-1.5">
      <label htmlFor={`audit-${name}`}>{t(name)}</label>
      <Input
        id={`audit-${name}`}
        name={name}
        type="datetime-local"
        value={draft[name] ?? ""}
        onChange={(e) => setDraft({ ...draft, [name]: e.target.value })}
        aria-describedby="audit-zone"
      />
    </div>
  );

  // An action or outcome picker; a code the list does not know (a tool an agent invented, from a link) stays
  // selectable as itself.
  const picker = (name: "action" | "outcome", known: readonly string[], options: ReactNode) => {
    const value = draft[name];
    return (
      <div className="grid min-w-0 gap-1.5 [&_[data-slot=native-select-wrapper]]:w-full">
        <label htmlFor={`audit-${name}`}>{t(name)}</label>
        <NativeSelect
          id={`audit-${name}`}
          name={name}
          className="w-full"
          value={value ?? ""}
          onChange={(e) => setDraft({ ...draft, [name]: e.target.value })}
        >
          <NativeSelectOption value="">{t(name === "action" ? "anyAction" : "anyOutcome")}</NativeSelectOption>
          {value && !known.includes(value) ? <NativeSelectOption value={value}>{value}</NativeSelectOption> : null}
          {options}
        </NativeSelect>
      </div>
    );
  };

  return (
    <>
      <form
        onSubmit={submit}
        role="search"
        aria-label={t("searchTitle")}
        className="mb-6 grid gap-4 rounded-xl border bg-card p-4"
      >
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {date("from")}
          {date("to")}
          {picker(
            "action",
            auditActions,
            Object.entries(auditActionGroups).map(([group, codes]) => (
              <NativeSelectOptGroup key={group} label={t(`actionGroups.${group}`)}>
                {codes.map((code) => (
                  <NativeSelectOption key={code} value={code}>
                    {labels.action(code)}
                  </NativeSelectOption>
                ))}
              </NativeSelectOptGroup>
            )),
          )}
          {picker(
            "outcome",
            auditOutcomes,
            auditOutcomes.map((code) => (
              <NativeSelectOption key={code} value={code}>
                {labels.outcome(code)}
              </NativeSelectOption>
            )),
          )}
        </div>
        <div className="flex flex-wrap items-center gap-2 text-sm" role="group" aria-label={t("quickRanges")}>
          {(["hour", "today", "week"] as const).map((r) => (
            <Button key={r} type="button" variant="outline" size="sm" onClick={() => preset(r)}>
              {t(`range_${r}`)}
            </Button>
          ))}
        </div>
        <p id="audit-zone" className="m-0 text-sm text-muted-foreground" data-zone={zone}>
          {params.tz && browserZone && params.tz !== browserZone ? t("zoneOfLink", { zone }) : t("zoneNote", { zone })}{" "}
          {params.tz && browserZone && params.tz !== browserZone ? (
            <button type="button" className="underline" onClick={() => void setParams({ tz: browserZone })}>
              {t("useMyZone", { zone: browserZone })}
            </button>
          ) : null}
        </p>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {text("traceId")}
          {text("actor")}
          {text("proposalId")}
          {text("subject", t("subjectHint"))}
        </div>
        <div className="flex flex-wrap gap-2">
          <Button type="submit">{t("search")}</Button>
          {active ? (
            <Button type="button" variant="ghost" onClick={clear}>
              {t("clear")}
            </Button>
          ) : null}
        </div>
      </form>

      <section aria-labelledby="audit-results-title" className="grid gap-3">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="audit-results-title" className="m-0 text-lg font-semibold">
            {active ? t("results") : t("recent")}
          </h2>
          <p className="m-0 text-sm">
            <a
              href={`/api/audit/export?${auditQueryString(filters, { format: "csv" })}`}
              download
              className="underline"
            >
              {t("exportCsv")}
            </a>{" "}
            ·{" "}
            <a
              href={`/api/audit/export?${auditQueryString(filters, { format: "json" })}`}
              download
              className="underline"
            >
              {t("exportJson")}
            </a>
          </p>
        </div>
        {active ? null : <p className="m-0 text-sm text-muted-foreground">{t("recentHint")}</p>}
        {search.isError ? (
          <div role="alert" data-audit-state="error" className="rounded-xl border border-destructive/40 bg-card p-4">
            <p className="m-0">{t("error", { message: search.error.message })}</p>
            <Button variant="outline" size="sm" className="mt-2" onClick={() => void search.refetch()}>
              {t("retry")}
            </Button>
          </div>
        ) : search.isPending ? (
          <div
            role="status"
            aria-busy="true"
            data-audit-state="loading"
            className="grid gap-2 rounded-xl border bg-card p-4"
          >
            <span className="sr-only">{t("loading")}</span>
            {Array.from({ length: 5 }, (_, i) => (
              <Skeleton key={i} className="h-10 w-full" />
            ))}
          </div>
        ) : rows.length === 0 ? (
          <div data-audit-state="empty" className="rounded-xl border bg-card p-6 text-center text-muted-foreground">
            {t("empty")}
          </div>
        ) : (
          <>
            <div data-audit-state="table" className="hidden rounded-xl border bg-card md:block">
              <Table aria-label={t("results")} data-query={auditQueryString(filters)}>
                <TableHeader>
                  <TableRow className="hover:bg-transparent">
                    {columns.map((c) => (
                      <TableHead
                        key={c.id}
                        scope="col"
                        className="px-3 text-xs tracking-wide text-muted-foreground uppercase"
                      >
                        {c.header}
                      </TableHead>
                    ))}
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {rows.map((e) => (
                    <TableRow key={e.id} data-event-id={e.id} data-action={e.action}>
                      {columns.map((c) => (
                        <TableCell key={c.id} className="px-3 py-2.5 align-top whitespace-normal">
                          {c.cell(e)}
                        </TableCell>
                      ))}
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </div>
            <ul className="m-0 grid list-none gap-3 p-0 md:hidden" aria-label={t("results")}>
              {rows.map((e) => (
                <li
                  key={e.id}
                  data-event-card={e.id}
                  data-action={e.action}
                  className="grid min-w-0 gap-1 rounded-xl border bg-card p-4 text-sm"
                >
                  <div className="flex flex-wrap items-start justify-between gap-2">
                    <strong title={e.action}>{labels.action(e.action)}</strong>
                    <Outcome code={e.outcome} labels={labels} />
                  </div>
                  <AuditTime value={e.occurredAt} zone={zone} />
                  <Actor e={e} labels={labels} />
                  <Link
                    href={`/audit/traces/${encodeURIComponent(e.traceId)}`}
                    aria-label={t("openTrace", { traceId: e.traceId })}
                    className="font-mono text-xs break-all"
                  >
                    {e.traceId}
                  </Link>
                </li>
              ))}
            </ul>
          </>
        )}
        {search.hasNextPage ? (
          <p className="m-0">
            <button
              type="button"
              className={buttonVariants({ variant: "outline" })}
              onClick={() => void search.fetchNextPage()}
              disabled={search.isFetchingNextPage}
            >
              {search.isFetchingNextPage ? t("loading") : t("loadMore")}
            </button>
          </p>
        ) : null}
      </section>
    </>
  );
}
