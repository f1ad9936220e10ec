"use client";

import { useState, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useLocale, useNow, useTranslations } from "next-intl";
import { api, ApiError, proposalDto, proposalKeys } from "@/lib/queries/proposals";
import { proposalStatus } from "@/lib/domain/proposal-state";
import type { ProposalPage } from "@/lib/schemas/proposal-dto";
import { isRefundDetail } from "@/lib/schemas/proposal-page";
import { formatMinor } from "@/lib/domain/format-money";
import type { StepUpInput } from "@/lib/schemas/proposals";
import { useShortcuts } from "@/components/reviewer/use-shortcuts";
import { useNextProposal } from "@/components/reviewer/use-next-proposal";
import { useClock } from "@/components/ui/use-clock";
import { loadToast } from "@/components/ui/toast";
import { useClaim } from "./claim-notice";
import { useDecidedElsewhere } from "./use-decided-elsewhere";

/**
 * A reviewer's decision on one proposal: which dialog is open, the approve and reject requests (each carries
 * the hash that was on screen), the a / r / n shortcuts, and what the dialogs restate.
 */
export function useDecision(p: ProposalPage) {
  const t = useTranslations("proposal");
  const tk = useTranslations("kinds");
  const locale = useLocale();
  const clock = useClock();
  const router = useRouter();
  const queryClient = useQueryClient();
  const now = useNow({ updateInterval: 1000 });
  const [open, setOpen] = useState<"approve" | "reject" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [decided, setDecided] = useState(false);
  const [needsStepUp, setNeedsStepUp] = useState(false);
  const [reason, setReason] = useState("");
  const [internalNote, setInternalNote] = useState("");
  const next = useNextProposal(p.id, decided);
  const claim = useClaim(p.id);
  // Opening a decision dialog takes (or renews) the advisory claim, so the other reviewers see who is on it.
  // Losing it to someone else changes nothing here: the dialog says who, and the decision still counts.
  const openDialog = (kind: "approve" | "reject") => {
    setError(null);
    setOpen(kind);
    void loadToast(); // the decision ends in a toast: its code loads while the reviewer reads the dialog
    if (!p.claim || p.claim.mine) claim.take.mutate();
  };
  const done = (text: string) => {
    setOpen(null);
    setError(null);
    setDecided(true);
    setNotice(text);
    void loadToast().then((toast) => toast.success(text));
  };

  const invalidate = () => queryClient.invalidateQueries({ queryKey: proposalKeys.all });
  const approve = useMutation({
    mutationFn: (body: { hash: string; stepUp?: StepUpInput }) =>
      api(`/api/proposals/${p.id}/approve`, proposalDto("approvalResultDto"), {
        method: "POST",
        body: JSON.stringify(body),
      }),
    onSuccess: (r) =>
      done(
        r.status === proposalStatus.approved
          ? t("approvedNotice")
          : t("partialNotice", { count: r.approvals, required: r.requiredApprovals }),
      ),
    onError: (e) => {
      if (e instanceof ApiError && e.details.reason === "step_up_required") setNeedsStepUp(true);
      setError(e.message);
    },
    onSettled: invalidate,
  });
  const reject = useMutation({
    mutationFn: (body: { hash: string; customerMessage: string; internalNote?: string }) =>
      api(`/api/proposals/${p.id}/reject`, proposalDto("rejectResultDto"), {
        method: "POST",
        body: JSON.stringify(body),
      }),
    onSuccess: () => done(t("rejectedNotice")),
    onError: (e) => setError(e.message),
    onSettled: invalidate,
  });

  // Both become due while the page is open, not only after a refused click. Past the expiry the page reads
  // expired (proposal-view.tsx): no Approve / Reject beside it (the viewer's flags were computed while pending).
  const expiredWhileOpen = now.getTime() >= new Date(p.expiresAt).getTime();
  const canDecide = p.viewer.canDecide && !decided && !expiredWhileOpen;
  const canReject = p.viewer.canReject && !decided && !expiredWhileOpen;
  useShortcuts({
    a: () => canDecide && openDialog("approve"),
    r: () => canReject && openDialog("reject"),
    n: () => next.data && router.push(`/proposals/${next.data.id}`),
  });

  const stepUpDue = needsStepUp || now.getTime() > new Date(p.viewer.stepUpAfter).getTime();
  const position = p.approvals.length + 1;
  const expires = clock.clock(new Date(p.expiresAt));
  let confirmText: string;
  let fourEyes: string;
  if (isRefundDetail(p)) {
    const amount = formatMinor(p.amountMinor, p.currency, locale);
    confirmText = t("confirm", {
      amount,
      recipient: p.recipient.display,
      holder: p.recipient.holder,
      order: p.order.number,
      expires,
    });
    fourEyes =
      p.requiredApprovals > 1 && position < p.requiredApprovals
        ? t("fourEyesFirst", { position, required: p.requiredApprovals })
        : p.payout === "manual"
          ? t(p.requiredApprovals > 1 ? "fourEyesFinalManual" : "singlePaysManual", { amount })
          : p.requiredApprovals > 1
            ? t("fourEyesFinal", { amount })
            : t("singlePays", { amount });
  } else {
    // Another kind: its own sentence (messages kinds.<kind>.confirm), every value from the hashed params.
    confirmText = tk.has(`${p.kind}.confirm`)
      ? tk(`${p.kind}.confirm`, { ...p.review.sentence, expires })
      : p.review.summary;
    fourEyes =
      p.requiredApprovals > 1 && position < p.requiredApprovals
        ? t("kindFourEyesFirst", { position, required: p.requiredApprovals })
        : t(p.requiredApprovals > 1 ? "kindFourEyesFinal" : "kindSingleActs");
  }

  function onApprove(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (expiredWhileOpen) return;
    const password = String(new FormData(event.currentTarget).get("password") ?? "");
    approve.mutate({
      hash: p.hash,
      ...(stepUpDue && password ? { stepUp: { method: "password" as const, password } } : {}),
    });
  }
  function onReject(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (expiredWhileOpen) return;
    reject.mutate({ hash: p.hash, customerMessage: reason, ...(internalNote.trim() ? { internalNote } : {}) });
  }

  const otherReviewer = claim.lostTo ?? (p.claim && !p.claim.mine ? p.claim.by : null);
  const elsewhere = useDecidedElsewhere(p, decided, () => setOpen(null));
  // prettier-ignore
  return {
    open, setOpen, openDialog, error, setError, notice: notice ?? elsewhere, decided, next, otherReviewer,
    reason, setReason, internalNote, setInternalNote, approve, reject, onApprove, onReject,
    canDecide, canReject, expiredWhileOpen, stepUpDue, confirmText, fourEyes,
  };
}

export type Decision = ReturnType<typeof useDecision>;
