"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import type { ProposalDetail } from "@/lib/schemas/proposal-dto";
import { Money } from "@/components/domain/money";
import { DateTime } from "@/components/ui/date-time";
import { OutcomeSection } from "./proposal-facts";

/** Plain words for what became of a proposal that is no longer waiting. */
export function ProposalOutcome({ p }: { p: ProposalDetail }) {
  const t = useTranslations("proposal");
  return (
    <OutcomeSection p={p} words="outcome" rejection={p.rejection ? <Rejection p={p} /> : null}>
      {p.supersededBy ? (
        <li>
          {t("replacedBy")} <Link href={`/proposals/${p.supersededBy.id}`}>{t("openReplacement")}</Link> (
          <Money minor={p.supersededBy.amountMinor} currency={p.currency} />)
        </li>
      ) : null}
    </OutcomeSection>
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
