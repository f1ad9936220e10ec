"use client";

import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { formatMinor } from "@/lib/domain/format-money";
import type { ProposalDetail } from "@/lib/schemas/proposal-dto";
import { useClock } from "@/components/ui/use-clock";

/**
 * What the reviewer should know before deciding: a row that no longer matches its hash, values not bound by an old
 * hash version, an earlier refusal of the same order, a possible duplicate.
 */
export function ProposalNotices({ p }: { p: ProposalDetail }) {
  const t = useTranslations("proposal");
  const clock = useClock();
  const locale = useLocale();
  return (
    <>
      {!p.hashIntact ? (
        <p
          className="m-0 rounded-md border border-destructive/40 bg-card px-3 py-2 text-sm text-destructive"
          data-testid="hash-broken"
          role="alert"
        >
          {t("hashBroken")}
        </p>
      ) : null}
      {p.hashVersion < 4 ? (
        <p className="m-0 rounded-md border bg-card px-3 py-2 text-sm" data-testid="not-hash-bound">
          {t("notHashBound")}
        </p>
      ) : null}
      {p.previouslyRejected ? (
        // The same order was refused before: the reviewer sees who, when and why before deciding again.
        <p
          className="m-0 rounded-md border border-warning-foreground/30 bg-warning px-3 py-2 text-sm text-warning-foreground"
          data-testid="previously-rejected"
        >
          {t("previouslyRejected", {
            by: p.previouslyRejected.by ?? "—",
            at: p.previouslyRejected.at ? clock.instant(new Date(p.previouslyRejected.at)) : "—",
            reason: p.previouslyRejected.reason ?? "—",
          })}{" "}
          <Link href={`/proposals/${p.previouslyRejected.proposalId}`}>{t("openEarlier")}</Link>
        </p>
      ) : null}
      {p.possibleDuplicateOf ? (
        <p className="m-0 rounded-md border bg-card px-3 py-2 text-sm" data-testid="duplicate-of">
          {t("duplicateOfPlain", {
            kind: t(`duplicateKind.${p.possibleDuplicateOf.kind}`),
            order: p.possibleDuplicateOf.orderNumber,
            amount: formatMinor(p.possibleDuplicateOf.amountMinor, p.currency, locale),
          })}
        </p>
      ) : null}
    </>
  );
}
