"use client";

import { ActionStepsNote } from "./action-steps";
import { useTranslations } from "next-intl";
import type { ProposalDetail } from "@/lib/schemas/proposal-dto";
import { Money } from "@/components/domain/money";
import { Section } from "@/components/page/section";
import { DecisionPanel } from "./decision-panel";
import { ExpiresFact, RequestFacts } from "./proposal-facts";
import { SupersedePanel } from "./supersede-panel";

/** The refund as it was hashed (amount, recipient, expiry, reason, who asked, hash, trace) and the decision. */
export function ProposalSummary({ p, waiting }: { p: ProposalDetail; waiting: boolean }) {
  const t = useTranslations("proposal");
  const tr = useTranslations("reasons");
  const tk = useTranslations("paymentMethods");
  return (
    <Section
      titleId="summary-title"
      title={waiting ? t("summary") : t("summaryDone")}
      headingClassName="mt-0"
      className="panel"
    >
      <dl className="facts">
        <dt>{t("amount")}</dt>
        <dd data-testid="amount">
          <strong>
            <Money minor={p.amountMinor} currency={p.currency} exact />
          </strong>
        </dd>
        <dt>{t("recipient")}</dt>
        <dd data-testid="recipient">{p.recipient.display}</dd>
        <dt>{t("holder")}</dt>
        <dd>{p.recipient.holder}</dd>
        <dt>{t("method")}</dt>
        <dd>{tk.has(p.recipient.kind) ? tk(p.recipient.kind) : p.recipient.kind}</dd>
        <dt>{t("reference")}</dt>
        <dd className="mono">{p.recipient.ref}</dd>
        <ExpiresFact p={p} waiting={waiting} />
        <dt>{t("reason")}</dt>
        <dd>{tr.has(p.reason) ? tr(p.reason) : p.reason}</dd>
        <RequestFacts p={p} />
      </dl>
      <p className="muted mb-0">
        {t("approvalsProgress", { count: p.approvals.length, required: p.requiredApprovals })}
      </p>
      <ActionStepsNote p={p} />
      <DecisionPanel proposal={p} />
      <SupersedePanel proposal={p} />
    </Section>
  );
}
