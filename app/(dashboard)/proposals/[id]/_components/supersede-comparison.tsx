"use client";

import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";
import { formatMinor } from "@/lib/domain/format-money";

type Side = { id: string; amountMinor: number };

/**
 * On a proposal that replaces another (an amount lowered, or prepared again): what changed, before → after,
 * with the way back to the earlier proposal. The reviewer who lowered the amount lands here.
 */
export function SupersedeComparison({ before, after }: { before: Side; after: Side & { currency: string } }) {
  const t = useTranslations("proposal");
  const locale = useLocale();
  const money = (minor: number) => formatMinor(minor, after.currency, locale);
  const lowered = before.amountMinor - after.amountMinor;
  return (
    <section
      aria-labelledby="supersede-title"
      className="m-0 grid gap-1 rounded-md border bg-card px-3 py-2 text-sm"
      data-testid="supersede-comparison"
    >
      <h2 id="supersede-title" className="m-0 text-sm font-medium">
        {t("comparisonTitle")}
      </h2>
      <p className="m-0 flex flex-wrap items-baseline gap-x-2">
        <span>
          {t("comparisonBefore")}: <s data-testid="amount-before">{money(before.amountMinor)}</s>
        </span>
        <span aria-hidden>→</span>
        <span>
          {t("comparisonAfter")}: <strong data-testid="amount-after">{money(after.amountMinor)}</strong>
        </span>
        <span className="text-muted-foreground">
          ({lowered > 0 ? t("comparisonLowered", { amount: money(lowered) }) : t("comparisonSame")})
        </span>
        <Link href={`/proposals/${before.id}`}>{t("openEarlier")}</Link>
      </p>
    </section>
  );
}
