"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import type { ProposalPage } from "@/lib/schemas/proposal-dto";
import { StatusBadge } from "@/components/domain/status-badge";

/**
 * An action in two steps (docs/action-kinds.md, "Steps"): on a follow-up, that it is step 2 of the proposal named and
 * authorised by that proposal's approval (so its own approval count reads as it is); on the first step, its step 2
 * with the status it has reached — a cancellation reads "succeeded" as soon as the shop cancelled, while its refund
 * may still be paying.
 */
export function ActionStepsNote({ p }: { p: ProposalPage }) {
  const t = useTranslations("proposal.steps");
  const tkind = useTranslations("kinds");
  const title = (kind: string) => (tkind.has(`${kind}.title`) ? tkind(`${kind}.title`) : kind);
  const { partOf, followUp } = p.steps;
  if (!partOf && !followUp) return null;
  return (
    <ul className="mb-0 grid list-none gap-1 p-0 text-sm" aria-label={t("label")}>
      {partOf ? (
        <li data-step="part-of">
          {t("partOf", { kind: title(partOf.kind) })}{" "}
          <Link href={`/proposals/${partOf.id}`}>{t("open", { kind: title(partOf.kind) })}</Link>
        </li>
      ) : null}
      {followUp ? (
        <li data-step="follow-up" className="flex flex-wrap items-center gap-x-2">
          <span>{t("followUp", { kind: title(followUp.kind) })}</span>
          <StatusBadge status={followUp.status} />
          <Link href={`/proposals/${followUp.id}`}>{t("open", { kind: title(followUp.kind) })}</Link>
        </li>
      ) : null}
    </ul>
  );
}
