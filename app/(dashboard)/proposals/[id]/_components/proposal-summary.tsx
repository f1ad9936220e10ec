"use client";

import Link from "next/link";
import { shortTraceId } from "@/lib/domain/short-trace-id";
import { useTranslations } from "next-intl";
import type { ProposalDetail } from "@/lib/schemas/proposal-dto";
import { Money } from "@/components/domain/money";
import { Countdown } from "@/components/domain/countdown";
import { ProposalHash } from "@/components/domain/proposal-hash";
import { CopyButton } from "@/components/ui/copy-button";
import { DateTime } from "@/components/ui/date-time";
import { Section } from "@/components/page/section";
import { DecisionPanel } from "./decision-panel";
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
        <dt>{t("reason")}</dt>
        <dd>{tr.has(p.reason) ? tr(p.reason) : p.reason}</dd>
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
      <SupersedePanel proposal={p} />
    </Section>
  );
}
