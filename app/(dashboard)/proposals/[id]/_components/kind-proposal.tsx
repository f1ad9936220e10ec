"use client";

import { ActionStepsNote } from "./action-steps";
import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import type { KindProposalDetail } from "@/lib/schemas/proposal-dto";
import { Section } from "@/components/page/section";
import { DecisionPanel } from "./decision-panel";
import { ExpiresFact, OutcomeSection, RequestFacts } from "./proposal-facts";

// The proposal page of every kind but the refund (docs/action-kinds.md): the action exactly as the kind's review
// presents it from the hashed params — labelled fields, before → after with the changed ones marked — then expiry,
// who asked, hash and trace, and the decision. Labels come from messages `kinds.<kind>.fields.<key>`.

/** What will happen: the kind's fields, before → after. */
export function KindProposalSummary({ p, waiting }: { p: KindProposalDetail; waiting: boolean }) {
  const t = useTranslations("proposal");
  const tk = useTranslations("kinds");
  const locale = useLocale();
  // A label the hashed params carry (an admin-declared action's) first, else the kind's messages.
  const label = (f: { key: string; label?: { en: string; es: string } }) =>
    f.label
      ? locale === "es"
        ? f.label.es
        : f.label.en
      : tk.has(`${p.kind}.fields.${f.key}`)
        ? tk(`${p.kind}.fields.${f.key}`)
        : f.key;
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
                {label(f)}
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
        <ExpiresFact p={p} waiting={waiting} />
        <RequestFacts p={p} />
      </dl>
      <p className="muted mb-0">
        {t("approvalsProgress", { count: p.approvals.length, required: p.requiredApprovals })}
      </p>
      <ActionStepsNote p={p} />
      <DecisionPanel proposal={p} />
    </Section>
  );
}

/** What became of it: the state, who approved, why it ended, and what the shop answered. */
export function KindProposalOutcome({ p }: { p: KindProposalDetail }) {
  const t = useTranslations("proposal");
  const te = useTranslations("executions.states");
  return (
    <OutcomeSection
      p={p}
      words="kindOutcome"
      rejection={p.rejection ? <li>{t("rejectedBy", { name: p.rejection.by ?? "—" })}</li> : null}
    >
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
    </OutcomeSection>
  );
}
