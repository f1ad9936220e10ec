"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import { proposalStatus } from "@/lib/domain/proposal-state";
import type { ProposalDetail } from "@/lib/schemas/proposal-dto";
import { Money } from "@/components/domain/money";
import { DateTime } from "@/components/ui/date-time";
import { Section } from "@/components/page/section";

/** Plain words for what became of a proposal that is no longer waiting. */
export function ProposalOutcome({ p }: { p: ProposalDetail }) {
  const t = useTranslations("proposal");
  const ti = useTranslations("invalidation");
  const tm = useTranslations("authMethods");
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
        {t(`outcome.${expiredUnnoticed ? proposalStatus.expired : p.status}` as "outcome.expired")}
        {p.decidedAt ? (
          <>
            {" "}
            <span className="text-muted-foreground">
              (<DateTime value={p.decidedAt} />)
            </span>
          </>
        ) : null}
      </p>
      <ul className="mt-3 mb-0">
        {p.approvals.map((a) => (
          <li key={a.id}>
            {t("approvedBy", { name: a.approver, method: tm.has(a.authMethod) ? tm(a.authMethod) : a.authMethod })} —{" "}
            <DateTime value={a.createdAt} />
          </li>
        ))}
        {p.rejection ? <Rejection p={p} /> : null}
        {p.invalidationReason ? (
          <li>
            {t("invalidatedWith", {
              reason: ti.has(p.invalidationReason) ? ti(p.invalidationReason) : p.invalidationReason,
            })}
          </li>
        ) : null}
        {p.supersededBy ? (
          <li>
            {t("replacedBy")} <Link href={`/proposals/${p.supersededBy.id}`}>{t("openReplacement")}</Link> (
            <Money minor={p.supersededBy.amountMinor} currency={p.currency} />)
          </li>
        ) : null}
      </ul>
    </Section>
  );
}

/** Who rejected it and when, the message the customer got, and the staff-only internal note. */
function Rejection({ p }: { p: ProposalDetail }) {
  const t = useTranslations("proposal");
  const r = p.rejection;
  if (!r) return null;
  return (
    <>
      <li data-testid="rejected-by">
        {t("rejectedBy", { name: r.by ?? "—" })}
        {r.at ? (
          <>
            {" — "}
            <DateTime value={r.at} />
          </>
        ) : null}
      </li>
      {r.customerMessage ? (
        <li data-testid="customer-message">{t("customerMessage", { message: r.customerMessage })}</li>
      ) : null}
      {r.internalNote ? <li data-testid="internal-note">{t("internalNote", { note: r.internalNote })}</li> : null}
    </>
  );
}
