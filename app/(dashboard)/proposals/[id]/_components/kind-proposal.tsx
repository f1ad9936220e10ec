"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import { shortTraceId } from "@/lib/domain/short-trace-id";
import { proposalStatus } from "@/lib/domain/proposal-state";
import type { KindProposalDetail } from "@/lib/schemas/proposal-dto";
import { Countdown } from "@/components/domain/countdown";
import { ProposalHash } from "@/components/domain/proposal-hash";
import { CopyButton } from "@/components/ui/copy-button";
import { DateTime } from "@/components/ui/date-time";
import { Section } from "@/components/page/section";
import { DecisionPanel } from "./decision-panel";

// The proposal page of every kind but the refund (docs/action-kinds.md): the action exactly as the kind's review
// presents it from the hashed params — labelled fields, before → after with the changed ones marked — then expiry,
// who asked, hash and trace, and the decision. Labels come from messages `kinds.<kind>.fields.<key>`.

/** What will happen: the kind's fields, before → after. */
export function KindProposalSummary({ p, waiting }: { p: KindProposalDetail; waiting: boolean }) {
  const t = useTranslations("proposal");
  const tk = useTranslations("kinds");
  const label = (key: string) => (tk.has(`${p.kind}.fields.${key}`) ? tk(`${p.kind}.fields.${key}`) : key);
  const hasBefore = p.review.fields.some((f) => f.before !== null);
  return (
    <Section
      titleId="summary-title"
      title={waiting ? t("summary") : t("summaryDone")}
      headingClassName="mt-0"
      className="panel"
    >
      <table className="w-full text-sm" data-testid="kind-review">
        <caption className="sr-only">{t("summary")}</caption>
        <thead>
          <tr>
            <th scope="col" className="text-left">
              {t("kindField")}
            </th>
            {hasBefore ? (
              <th scope="col" className="text-left">
                {t("kindBefore")}
              </th>
            ) : null}
            <th scope="col" className="text-left">
              {hasBefore ? t("kindAfter") : t("kindValue")}
            </th>
          </tr>
        </thead>
        <tbody>
          {p.review.fields.map((f) => (
            <tr key={f.key} data-field={f.key} data-changed={f.changed ? "true" : undefined}>
              <th scope="row" className="text-left font-normal text-muted-foreground">
                {label(f.key)}
              </th>
              {hasBefore ? (
                <td className={f.changed ? "line-through opacity-70" : undefined}>{f.before ?? "—"}</td>
              ) : null}
              <td className={f.changed ? "font-semibold" : undefined}>
                {f.after ?? "—"}
                {f.changed ? <span className="sr-only"> ({t("kindChanged")})</span> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className="facts">
        <dt>{t("expires")}</dt>
        <dd data-testid="expires" data-expires-at={p.expiresAt}>
          {waiting ? (
            <>
              <Countdown until={p.expiresAt} showAbsolute={false} /> · <DateTime value={p.expiresAt} />
            </>
          ) : (
            <DateTime value={p.expiresAt} />
          )}
        </dd>
        <dt>{t("requestedBy")}</dt>
        <dd>
          {p.requestedBy.kind === "agent"
            ? t("agentVia", { name: p.requestedBy.name, channel: p.requestedBy.channel ?? "—" })
            : t("staffBy", { name: p.requestedBy.name })}
        </dd>
        <dt>{t("hash")}</dt>
        <dd>
          <ProposalHash hash={p.hash} />
        </dd>
        <dt>{t("trace")}</dt>
        <dd className="flex flex-wrap items-center gap-1">
          <Link href={`/audit/traces/${encodeURIComponent(p.traceId)}`} className="mono break-all">
            {t("traceLink", { trace: shortTraceId(p.traceId) })}
          </Link>
          <CopyButton value={p.traceId} label={t("trace")} />
        </dd>
      </dl>
      <p className="muted mb-0">
        {t("approvalsProgress", { count: p.approvals.length, required: p.requiredApprovals })}
      </p>
      <DecisionPanel proposal={p} />
    </Section>
  );
}

/** What became of it: the state, who approved, why it ended, and what the shop answered. */
export function KindProposalOutcome({ p }: { p: KindProposalDetail }) {
  const t = useTranslations("proposal");
  const ti = useTranslations("invalidation");
  const tm = useTranslations("authMethods");
  const te = useTranslations("executions.states");
  const expiredUnnoticed = p.status === proposalStatus.pendingApproval;
  return (
    <Section
      titleId="outcome-title"
      title={t("whatHappened")}
      headingClassName="mt-0"
      className="panel"
      data-testid="outcome"
    >
      <p className="m-0 text-base">
        {t(`kindOutcome.${expiredUnnoticed ? proposalStatus.expired : p.status}` as "kindOutcome.expired")}
        {p.decidedAt ? (
          <span className="text-muted-foreground">
            {" "}
            (<DateTime value={p.decidedAt} />)
          </span>
        ) : null}
      </p>
      <ul className="mt-3 mb-0">
        {p.approvals.map((a) => (
          <li key={a.id}>
            {t("approvedBy", { name: a.approver, method: tm.has(a.authMethod) ? tm(a.authMethod) : a.authMethod })} —{" "}
            <DateTime value={a.createdAt} />
          </li>
        ))}
        {p.rejection ? <li>{t("rejectedBy", { name: p.rejection.by ?? "—" })}</li> : null}
        {p.invalidationReason ? (
          <li>
            {t("invalidatedWith", {
              reason: ti.has(p.invalidationReason) ? ti(p.invalidationReason) : p.invalidationReason,
            })}
          </li>
        ) : null}
        {p.execution ? (
          <li data-testid="kind-execution">
            <Link href={`/executions/${encodeURIComponent(p.execution.id)}`}>
              {t("kindExecution", {
                state: te.has(p.execution.status) ? te(p.execution.status) : p.execution.status,
              })}
            </Link>
            {p.execution.reference ? <span className="mono"> · {p.execution.reference}</span> : null}
            {p.execution.failureReason ? <span> · {p.execution.failureReason}</span> : null}
          </li>
        ) : null}
      </ul>
    </Section>
  );
}
