"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { ArrowLeft } from "lucide-react";
import { isExecutionSettled } from "@/lib/domain/execution-state";
import { foldSupersededLines } from "@/lib/domain/execution-timeline";
import { executionDetailQuery } from "@/lib/queries/executions";
import type { ExecutionEvent } from "@/lib/schemas/execution-dto";
import { Money } from "@/components/domain/money";
import { LiveStatus } from "@/components/domain/live-status";
import { useStreamOpen } from "@/components/realtime/use-change-stream";
import { useLiveInvalidation } from "@/components/realtime/use-live-invalidation";
import { StatusBadge } from "@/components/domain/status-badge";
import { CopyButton } from "@/components/ui/copy-button";
import { DateTime, RelativeTime } from "@/components/ui/date-time";
import { Toaster } from "@/components/ui/sonner";
import { cn } from "@/lib/utils";
import { CheckNowButton } from "../../_components/check-now-button";
import { ExecutionStateBadge } from "../../_components/execution-state-badge";
import { FailureReason } from "../../_components/failure-reason";

const panel = "min-w-0 rounded-xl border bg-card p-4";
const mono = "font-mono text-xs break-all";

function Field({ label, children, wide = false }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={cn("grid min-w-0 gap-0.5", wide && "sm:col-span-2")}>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="m-0 min-w-0">{children}</dd>
    </div>
  );
}

const dot: Record<ExecutionEvent["kind"], string> = {
  send: "bg-primary",
  answer: "bg-success",
  resend: "bg-warning-foreground",
  reconcile: "bg-chart-2",
  check: "bg-muted-foreground",
  other: "bg-muted-foreground",
};

/** One execution: what is paid and to whom, its keys with copy buttons, and the timeline of what happened. */
export function ExecutionDetailView({ id, canReconcile }: { id: string; canReconcile: boolean }) {
  const t = useTranslations("executions");
  const td = useTranslations("executions.detail");
  const tr = useTranslations("reasons");
  const tk = useTranslations("paymentMethods");
  const q = useQuery(executionDetailQuery(id));
  const pushed = useStreamOpen();
  useLiveInvalidation();
  const d = q.data;
  if (!d) return null;
  const p = d.proposal;
  const failing = q.isRefetchError || q.failureCount > 0;

  return (
    <article aria-labelledby="execution-title" className="grid min-w-0 gap-6">
      <Toaster richColors closeButton position="bottom-right" />
      <div className="grid gap-2">
        <Link href="/executions" className="inline-flex w-fit items-center gap-1 text-sm">
          <ArrowLeft aria-hidden className="size-4" />
          {td("back")}
        </Link>
        <div className="flex flex-wrap items-center gap-3">
          <h1 id="execution-title" className="m-0">
            {td("title", { order: d.orderNumber })}
          </h1>
          <ExecutionStateBadge state={d.status} className="text-sm" />
        </div>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <LiveStatus updatedAt={q.dataUpdatedAt} failing={failing} pushed={pushed} />
          {canReconcile && !isExecutionSettled(d.status) ? (
            <CheckNowButton executionId={d.id} order={d.orderNumber} size="default" />
          ) : null}
        </div>
      </div>

      <div className="grid min-w-0 gap-4 lg:grid-cols-2">
        <section aria-labelledby="exec-summary-title" className={panel}>
          <h2 id="exec-summary-title" className="m-0 mb-3 text-lg font-semibold">
            {td("summaryTitle")}
          </h2>
          <dl className="m-0 grid gap-3 sm:grid-cols-2">
            <Field label={td("amount")}>
              <span className="text-lg font-semibold">
                <Money minor={p.amountMinor} currency={p.currency} exact />
              </span>
            </Field>
            <Field label={td("recipient")}>
              {p.recipientDisplay}
              <span className="block text-xs text-muted-foreground">
                {p.recipientHolder} · {tk.has(p.recipientKind) ? tk(p.recipientKind) : p.recipientKind}
              </span>
            </Field>
            <Field label={td("order")}>{p.orderNumber}</Field>
            <Field label={td("customer")}>
              {p.customerName}
              <span className={cn("block text-muted-foreground", mono)}>{p.customerId}</span>
            </Field>
            <Field label={td("reason")}>{tr.has(p.reason) ? tr(p.reason) : p.reason}</Field>
            <Field label={td("proposalStatus")}>
              <StatusBadge status={p.status} />
            </Field>
          </dl>
          <p className="mt-4 mb-0 flex flex-wrap gap-x-4 gap-y-2 text-sm">
            <Link href={`/proposals/${p.id}`}>{td("openProposal")}</Link>
            <Link href={`/audit/traces/${encodeURIComponent(p.traceId)}`}>{td("openTrace")}</Link>
          </p>
        </section>

        <section aria-labelledby="exec-keys-title" className={panel}>
          <h2 id="exec-keys-title" className="m-0 mb-3 text-lg font-semibold">
            {td("executionTitle")}
          </h2>
          <dl className="m-0 grid gap-3 sm:grid-cols-2">
            <Field wide label={td("idempotencyKey")}>
              <span className="flex items-start gap-1">
                <span className={mono} data-testid="idempotency-key">
                  {d.idempotencyKey}
                </span>
                <CopyButton value={d.idempotencyKey} label={t("idempotencyKeyName")} />
              </span>
            </Field>
            <Field wide label={td("providerRefundId")}>
              {d.providerRefundId ? (
                <span className="flex items-start gap-1">
                  <span className={mono} data-testid="provider-refund-id">
                    {d.providerRefundId}
                  </span>
                  <CopyButton value={d.providerRefundId} label={td("providerRefundId")} />
                </span>
              ) : (
                <span className="text-muted-foreground">{td("notYet")}</span>
              )}
            </Field>
            <Field label={td("attempts")}>{d.attempts}</Field>
            <Field label={td("reconciliations")}>{d.reconciliations}</Field>
            <Field label={td("createdAt")}>
              <DateTime value={d.createdAt} />
            </Field>
            {d.lastAttemptAt ? (
              <Field label={td("lastAttemptAt")}>
                <DateTime value={d.lastAttemptAt} />
              </Field>
            ) : null}
            {d.settledAt ? (
              <Field label={td("settledAt")}>
                <DateTime value={d.settledAt} />
              </Field>
            ) : null}
            {d.failureReason ? (
              <Field label={td("failureReason")}>
                <FailureReason reason={d.failureReason} />
              </Field>
            ) : null}
            {d.lastError ? (
              <Field wide label={td("lastError")}>
                <span className={mono} data-testid="last-error">
                  {d.lastError}
                </span>
              </Field>
            ) : null}
          </dl>
        </section>
      </div>

      <Timeline events={d.events} />
    </article>
  );
}

function Timeline({ events }: { events: ExecutionEvent[] }) {
  const td = useTranslations("executions.detail");
  const items = foldSupersededLines(events);
  return (
    <section aria-labelledby="exec-timeline-title" className={panel}>
      <h2 id="exec-timeline-title" className="m-0 text-lg font-semibold">
        {td("timelineTitle")}
      </h2>
      <p className="mt-1 mb-4 text-sm text-muted-foreground">{td("timelineHelp")}</p>
      {events.length === 0 ? (
        <p className="m-0">{td("timelineEmpty")}</p>
      ) : (
        <ol className="m-0 grid list-none gap-0 p-0" aria-labelledby="exec-timeline-title">
          {items.map((item, i) => {
            const last = i === items.length - 1;
            if (item.type === "event") return <TimelineEntry key={item.event.id} event={item.event} last={last} />;
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
                      <TimelineEntry key={e.id} event={e} last={j === item.events.length - 1} />
                    ))}
                  </ol>
                </details>
              </li>
            );
          })}
        </ol>
      )}
    </section>
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

function TimelineEntry({ event: e, last }: { event: ExecutionEvent; last: boolean }) {
  const t = useTranslations("executions");
  const td = useTranslations("executions.detail");
  const ts = useTranslations("executions.states");
  const label = t.has(`events.${e.action}`) ? t(`events.${e.action}`) : t("events.other", { action: e.action });
  const facts = [
    e.source && t.has(`sources.${e.source}`) ? t(`sources.${e.source}`) : null,
    e.finding && t.has(`findings.${e.finding}`) ? t(`findings.${e.finding}`) : null,
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
