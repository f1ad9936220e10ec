"use client";

import { useTranslations } from "next-intl";
import { foldSupersededLines } from "@/lib/domain/execution-timeline";
import type { ExecutionEvent } from "@/lib/schemas/execution-dto";
import { DateTime, RelativeTime } from "@/components/ui/date-time";
import { CardSection } from "@/components/page/section";
import { cn } from "@/lib/utils";

const mono = "font-mono text-xs break-all";

const dot: Record<ExecutionEvent["kind"], string> = {
  send: "bg-primary",
  answer: "bg-success",
  resend: "bg-warning-foreground",
  reconcile: "bg-chart-2",
  check: "bg-muted-foreground",
  payout: "bg-success",
  other: "bg-muted-foreground",
};

/** What happened to the execution, in order, with absolute times; in-doubt lines a settlement made obsolete folded. */
export function Timeline({ events, byShop = false }: { events: ExecutionEvent[]; byShop?: boolean }) {
  const td = useTranslations("executions.detail");
  const items = foldSupersededLines(events);
  return (
    <CardSection titleId="exec-timeline-title" title={td("timelineTitle")}>
      <p className="mt-1 mb-4 text-sm text-muted-foreground">{td("timelineHelp")}</p>
      {events.length === 0 ? (
        <p className="m-0">{td("timelineEmpty")}</p>
      ) : (
        <ol className="m-0 grid list-none gap-0 p-0" aria-labelledby="exec-timeline-title">
          {items.map((item, i) => {
            const last = i === items.length - 1;
            if (item.type === "event")
              return <TimelineEntry key={item.event.id} event={item.event} last={last} byShop={byShop} />;
            // In-doubt lines the settlement made obsolete: kept, folded, in their place.
            return (
              <li
                key={item.events[0]!.id}
                data-superseded={item.events.length}
                className="relative grid grid-cols-[1.25rem_1fr] gap-x-3 pb-4 last:pb-0"
              >
                <Connector className="bg-muted" last={last} />
                <details className="min-w-0 text-sm">
                  <summary className="cursor-pointer text-muted-foreground">
                    {td("superseded", { count: item.events.length })}
                  </summary>
                  <ol className="m-0 mt-3 grid list-none gap-0 p-0 opacity-80">
                    {item.events.map((e, j) => (
                      <TimelineEntry key={e.id} event={e} last={j === item.events.length - 1} byShop={byShop} />
                    ))}
                  </ol>
                </details>
              </li>
            );
          })}
        </ol>
      )}
    </CardSection>
  );
}

function Connector({ className, last }: { className: string; last: boolean }) {
  return (
    <span aria-hidden className="relative flex justify-center">
      <span className={cn("mt-1.5 size-2.5 rounded-full", className)} />
      {last ? null : <span className="absolute top-5 bottom-[-0.25rem] w-px bg-border" />}
    </span>
  );
}

/** One event; `byShop`: the execution is the shop's (another kind's), told in the shop's words where they differ. */
function TimelineEntry({ event: e, last, byShop }: { event: ExecutionEvent; last: boolean; byShop: boolean }) {
  const t = useTranslations("executions");
  const td = useTranslations("executions.detail");
  const ts = useTranslations("executions.states");
  const label =
    byShop && t.has(`shopEvents.${e.action}`)
      ? t(`shopEvents.${e.action}`)
      : t.has(`events.${e.action}`)
        ? t(`events.${e.action}`)
        : t("events.other", { action: e.action });
  const finding = !e.finding
    ? null
    : byShop && t.has(`shopFindings.${e.finding}`)
      ? t(`shopFindings.${e.finding}`)
      : t.has(`findings.${e.finding}`)
        ? t(`findings.${e.finding}`)
        : null;
  const facts = [
    e.source && t.has(`sources.${e.source}`) ? t(`sources.${e.source}`) : null,
    finding,
    e.attempt ? td("attempt", { n: e.attempt }) : null,
    e.reconciliation ? td("reconciliation", { n: e.reconciliation }) : null,
    e.status && e.kind !== "answer" ? td("stateAfter", { state: ts(e.status) }) : null,
  ].filter((x): x is string => !!x);
  return (
    <li
      data-action={e.action}
      data-kind={e.kind}
      className="relative grid grid-cols-[1.25rem_1fr] gap-x-3 pb-4 last:pb-0"
    >
      <Connector className={dot[e.kind]} last={last} />
      <div className="grid min-w-0 gap-0.5">
        <p className="m-0 flex flex-wrap items-baseline gap-x-2 text-sm">
          <span className="text-xs font-medium tracking-wide text-muted-foreground uppercase">
            {t(`kinds.${e.kind}`)}
          </span>
          <DateTime value={e.at} className="text-xs text-muted-foreground" />{" "}
          <RelativeTime value={e.at} className="text-xs text-muted-foreground" />
        </p>
        <p className="m-0 font-medium">{label}</p>
        {facts.length ? <p className="m-0 text-sm text-muted-foreground">{facts.join(" · ")}</p> : null}
        {e.refundId ? (
          <p className={cn("m-0 text-muted-foreground", mono)}>{td("refund", { id: e.refundId })}</p>
        ) : null}
        {e.detail ? <p className={cn("m-0 text-muted-foreground", mono)}>{e.detail}</p> : null}
        <p className="m-0 text-xs text-muted-foreground">
          {e.actorName ? td("by", { name: e.actorName }) : td("bySystem")}
        </p>
      </div>
    </li>
  );
}
