"use client";

import Link from "next/link";
import { useMemo } from "react";
import { useFormatter, useTranslations } from "next-intl";
import { auditCodeKey } from "@/lib/domain/audit-actions";
import { instantFormat } from "@/lib/domain/clock";
import type { AuditEventViewDto } from "@/lib/schemas/audit-dto";
import { Badge } from "@/components/ui/badge";
import { useClock } from "@/components/ui/use-clock";

/** An instant in the search's zone (the one the date filters are read in, the viewer's unless the link
 *  names another), labelled (lib/domain/clock.ts); the tenant's zone and UTC on hover. */
export function AuditTime({ value, zone }: { value: string; zone: string }) {
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

export type AuditLabels = {
  action: (code: string) => string;
  outcome: (code: string) => string;
  actorType: (type: string) => string;
};

/** Plain-language names of audit codes; a code without a translation reads as itself. */
export function useAuditLabels(): AuditLabels {
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

export function AuditActor({ e, labels }: { e: AuditEventViewDto; labels: AuditLabels }) {
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

export function AuditOutcome({ code, labels }: { code: string; labels: AuditLabels }) {
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

/** Opens the trace page of one trace id. */
export function TraceLink({ traceId }: { traceId: string }) {
  const t = useTranslations("audit");
  return (
    <Link
      href={`/audit/traces/${encodeURIComponent(traceId)}`}
      // An audited lookup (audit:view_trace): only a person's click opens it, never a prefetch.
      prefetch={false}
      aria-label={t("openTrace", { traceId })}
      className="font-mono text-xs break-all"
    >
      {traceId}
    </Link>
  );
}
