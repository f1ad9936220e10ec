"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useNow, useTranslations } from "next-intl";
import { effectiveStatus, proposalStatus } from "@/lib/domain/proposal-state";
import { proposalQuery } from "@/lib/queries/proposals";
import { StatusBadge } from "@/components/domain/status-badge";
import { LazyToaster } from "@/components/ui/toast";
import { useLiveInvalidation } from "@/components/realtime/use-live-invalidation";
import { SupersedeComparison } from "./supersede-comparison";
import { ProposalHistory } from "./proposal-history";
import { ProposalNotices } from "./proposal-notices";
import { CustomerConfirmationBadge } from "@/components/reviewer/customer-confirmation-badge";
import { ProposalOrder } from "./proposal-order";
import { ProposalOutcome } from "./proposal-outcome";
import { ProposalSummary } from "./proposal-summary";
import { KindProposalOutcome, KindProposalSummary } from "./kind-proposal";
import { isRefundDetail } from "@/lib/schemas/proposal-page";

/** One proposal, kept live by push and poll: what it is, what became of it, its order and its history. */
export function ProposalView({ id }: { id: string }) {
  const t = useTranslations("proposal");
  const tk = useTranslations("kinds");
  const { data: p } = useQuery(proposalQuery(id));
  useLiveInvalidation();
  const now = useNow({ updateInterval: 5_000 });
  if (!p) return null;
  // One state on the page: past the expiry it reads expired (badge, outcome, no decision), whatever was fetched.
  const status = effectiveStatus({ status: p.status, expiresAt: new Date(p.expiresAt) }, now);
  const waiting = status === proposalStatus.pendingApproval;
  if (!isRefundDetail(p)) {
    // Another kind: the registry's review of its hashed params (kind-proposal.tsx).
    return (
      <div className="stack">
        <LazyToaster richColors closeButton position="bottom-right" />
        <p className="m-0">
          <Link href="/queue">← {t("back")}</Link>
        </p>
        <h1 className="flex flex-wrap items-center gap-2">
          {tk.has(`${p.kind}.title`) ? tk(`${p.kind}.title`) : p.kind} <StatusBadge status={status} />
        </h1>
        <CustomerConfirmationBadge c={p.customerConfirmation} />
        {waiting ? null : <KindProposalOutcome p={p} />}
        <KindProposalSummary p={p} waiting={waiting} />
        <ProposalHistory p={p} />
      </div>
    );
  }
  return (
    <div className="stack">
      {/* Toasts are only raised here (decisions), and sonner loads with the first decision dialog (toast.tsx). */}
      <LazyToaster richColors closeButton position="bottom-right" />
      <p className="m-0">
        <Link href="/queue">← {t("back")}</Link>
      </p>
      <h1 className="flex flex-wrap items-center gap-2">
        {t("title", { order: p.order.number })} <StatusBadge status={status} />
      </h1>

      {p.supersedes ? <SupersedeComparison before={p.supersedes} after={p} /> : null}
      <ProposalNotices p={p} />
      <CustomerConfirmationBadge c={p.customerConfirmation} />

      {waiting ? null : <ProposalOutcome p={p} />}

      <div className="grid-2">
        <ProposalSummary p={p} waiting={waiting} />
        <ProposalOrder p={p} waiting={waiting} />
      </div>

      <ProposalHistory p={p} />
    </div>
  );
}
