"use client";

import { useEffect, useState } from "react";
import { useTranslations } from "next-intl";
import type { ProposalPage } from "@/lib/schemas/proposal-dto";
import { proposalStatus } from "@/lib/domain/proposal-state";
import { useClock } from "@/components/ui/use-clock";
import { loadToast } from "@/components/ui/toast";

type Say = (key: string, values?: Record<string, string | number>) => string;
type Reading = Pick<ProposalPage, "status" | "approvals" | "requiredApprovals" | "rejection"> & {
  viewer: Pick<ProposalPage["viewer"], "alreadyApproved">;
};

/** What changed between two readings of the proposal that this viewer did not do, in the words shown. */
export function whatChanged(before: Reading, now: Reading, t: Say, at: (iso: string) => string): string | null {
  const newest = now.approvals[now.approvals.length - 1];
  const grew = now.approvals.length > before.approvals.length;
  // The newest approval is the viewer's own, from another tab or window (this tab's own decision never gets here).
  if (grew && newest && now.viewer.alreadyApproved && !before.viewer.alreadyApproved)
    return t("decidedElsewhere.yours", { time: at(newest.createdAt) });
  if (grew && newest)
    return now.status === proposalStatus.approved
      ? t("decidedElsewhere.approved", { name: newest.approver, time: at(newest.createdAt) })
      : t("decidedElsewhere.partial", {
          name: newest.approver,
          time: at(newest.createdAt),
          count: now.approvals.length,
          required: now.requiredApprovals,
        });
  if (before.status === now.status) return null;
  if (now.status === proposalStatus.rejected)
    return t("decidedElsewhere.rejected", {
      name: now.rejection?.by ?? "—",
      time: now.rejection?.at ? at(now.rejection.at) : "—",
    });
  if (before.status === proposalStatus.pendingApproval)
    return t("decidedElsewhere.other", { status: t(`outcome.${now.status}`) });
  return null;
}

/**
 * A second tab (or a colleague) decided while this page was open: the open dialog closes (the pushed change
 * already took its buttons away) and the page says who decided and when, instead of closing silently. The
 * viewer's own decision is not news (`decided`, or their approval is the newest).
 */
export function useDecidedElsewhere(p: ProposalPage, decided: boolean, closeDialog: () => void): string | null {
  const t = useTranslations("proposal");
  const clock = useClock();
  const [seen, setSeen] = useState(p);
  const [told, setTold] = useState<string | null>(null);
  if (seen !== p) {
    // Adjusting state while rendering (React's pattern for "the prop changed"), not in an effect.
    const text = decided ? null : whatChanged(seen, p, t as Say, (iso) => clock.clock(new Date(iso)));
    setSeen(p);
    if (text) {
      setTold(text);
      // Another reviewer's first of two approvals leaves this one to give: the dialog stays.
      if (p.status !== proposalStatus.pendingApproval) closeDialog();
    }
  }
  useEffect(() => {
    if (told) void loadToast().then((toast) => toast.info(told, { duration: 10_000 }));
  }, [told]);
  return told;
}
