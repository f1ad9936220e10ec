"use client";

import Link from "next/link";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useLocale, useNow, useTranslations } from "next-intl";
import { toast } from "sonner";
import { api, ApiError, proposalKeys } from "@/lib/queries/proposals";
import { proposalStatus } from "@/lib/domain/proposal-state";
import { approvalResultDto, rejectResultDto, type ProposalDetail } from "@/lib/schemas/proposal-dto";
import { formatMinor } from "@/lib/domain/format-money";
import type { StepUpInput } from "@/lib/schemas/proposals";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Kbd } from "@/components/ui/kbd";
import { useShortcuts } from "@/components/reviewer/use-shortcuts";
import { useNextProposal } from "@/components/reviewer/use-next-proposal";
import { RejectFields } from "@/components/reviewer/reject-fields";
import { PasskeyApproveButton } from "./passkey-approve-button";
import { ClaimNotice, useClaim } from "./claim-notice";
import { useClock } from "@/components/ui/use-clock";
import { useHydrated } from "@/components/ui/use-hydrated";

/**
 * Approve / reject for reviewers. The confirmation restates exactly what will happen (and whether this
 * approval pays or waits for a second reviewer); the request carries the hash that was on screen, the
 * server recomputes it and refuses any difference.
 */
export function DecisionPanel({ proposal: p }: { proposal: ProposalDetail }) {
  const t = useTranslations("proposal");
  const tc = useTranslations("proposal.claim");
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
  const nextLink = useRef<HTMLAnchorElement>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  const reasonInput = useRef<HTMLTextAreaElement>(null);
  const next = useNextProposal(p.id, decided);
  const claim = useClaim(p.id);
  // Opening a decision dialog takes (or renews) the advisory claim, so the other reviewers see who is on it.
  // Losing it to someone else changes nothing here: the dialog says who, and the decision still counts.
  const openDialog = (kind: "approve" | "reject") => {
    setError(null);
    setOpen(kind);
    if (!p.claim || p.claim.mine) claim.take.mutate();
  };

  const invalidate = () => queryClient.invalidateQueries({ queryKey: proposalKeys.all });
  const approve = useMutation({
    mutationFn: (body: { hash: string; stepUp?: StepUpInput }) =>
      api(`/api/proposals/${p.id}/approve`, approvalResultDto, { method: "POST", body: JSON.stringify(body) }),
    onSuccess: (r) => {
      setOpen(null);
      setError(null);
      setDecided(true);
      const text =
        r.status === proposalStatus.approved
          ? t("approvedNotice")
          : t("partialNotice", { count: r.approvals, required: r.requiredApprovals });
      setNotice(text);
      toast.success(text);
    },
    onError: (e) => {
      if (e instanceof ApiError && e.details.reason === "step_up_required") setNeedsStepUp(true);
      setError(e.message);
    },
    onSettled: invalidate,
  });
  const reject = useMutation({
    mutationFn: (body: { hash: string; customerMessage: string; internalNote?: string }) =>
      api(`/api/proposals/${p.id}/reject`, rejectResultDto, { method: "POST", body: JSON.stringify(body) }),
    onSuccess: () => {
      setOpen(null);
      setError(null);
      setDecided(true);
      setNotice(t("rejectedNotice"));
      toast.success(t("rejectedNotice"));
    },
    onError: (e) => setError(e.message),
    onSettled: invalidate,
  });

  // After a decision the next item is one keystroke away (Enter on the focused link, or n).
  useEffect(() => {
    if (decided && next.data) nextLink.current?.focus();
  }, [decided, next.data]);

  const canDecide = p.viewer.canDecide && !decided;
  const canReject = p.viewer.canReject && !decided;
  // Until React owns the page the buttons cannot open their dialogs: disabled, so an early click is not lost.
  const hydrated = useHydrated();
  useShortcuts({
    a: () => canDecide && openDialog("approve"),
    r: () => canReject && openDialog("reject"),
    n: () => next.data && router.push(`/proposals/${next.data.id}`),
  });

  // Both become due while the page is open, not only after a refused click.
  const expiredWhileOpen = now.getTime() >= new Date(p.expiresAt).getTime();
  const stepUpDue = needsStepUp || now.getTime() > new Date(p.viewer.stepUpAfter).getTime();
  const amount = formatMinor(p.amountMinor, p.currency, locale);
  const expires = clock.clock(new Date(p.expiresAt));
  const confirmText = t("confirm", {
    amount,
    recipient: p.recipient.display,
    holder: p.recipient.holder,
    order: p.order.number,
    expires,
  });
  const position = p.approvals.length + 1;
  const fourEyes =
    p.requiredApprovals > 1 && position < p.requiredApprovals
      ? t("fourEyesFirst", { position, required: p.requiredApprovals })
      : p.requiredApprovals > 1
        ? t("fourEyesFinal", { amount })
        : t("singlePays", { amount });

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

  const status = (
    <>
      {notice ? (
        <div className="notice" role="status">
          {notice}{" "}
          {decided && next.data ? (
            <Link ref={nextLink} href={`/proposals/${next.data.id}`} className="font-medium">
              {t("reviewNext", { order: next.data.orderNumber })} <Kbd>n</Kbd>
            </Link>
          ) : decided && next.isSuccess ? (
            <Link href="/queue">{t("queueEmptyNext")}</Link>
          ) : null}
        </div>
      ) : null}
      {error && !open ? (
        <p className="error-box" role="alert" data-testid="decision-error">
          {error}
        </p>
      ) : null}
    </>
  );

  if (!p.viewer.canDecide && !p.viewer.canReject) {
    return (
      <>
        {status}
        {p.viewer.ownRequest ? <p className="muted">{t("ownRequest")}</p> : null}
      </>
    );
  }

  const otherReviewer = claim.lostTo ?? (p.claim && !p.claim.mine ? p.claim.by : null);
  const dialogError = (
    <>
      {otherReviewer ? (
        <p className="m-0 rounded-md border bg-card px-3 py-2 text-sm" data-testid="claim-lost">
          {tc("lostTo", { name: otherReviewer })}
        </p>
      ) : null}
      {expiredWhileOpen ? (
        <p className="error-box" role="alert">
          {t("expiredWhileOpen")}
        </p>
      ) : null}
      {error ? (
        <p className="error-box" role="alert" data-testid="decision-error">
          {error}
        </p>
      ) : null}
    </>
  );

  return (
    <>
      {status}
      {p.viewer.alreadyApproved ? <p className="muted">{t("alreadyApproved")}</p> : null}
      {p.viewer.ownRequest ? <p className="muted">{t("ownRequest")}</p> : null}
      {decided ? null : <ClaimNotice proposalId={p.id} claim={p.claim} canClaim={canReject} />}
      {canDecide || canReject ? (
        // On a phone the actions stay on screen (a bar stuck to the bottom while the facts scroll past).
        <div
          role="group"
          aria-label={t("actions")}
          data-testid="decision-actions"
          className="mt-4 flex flex-wrap gap-3 max-md:sticky max-md:bottom-0 max-md:z-10 max-md:-mx-4 max-md:border-t max-md:bg-card/95 max-md:px-4 max-md:py-3 max-md:backdrop-blur max-md:[&>button]:flex-1"
        >
          {canDecide ? (
            <Button type="button" onClick={() => openDialog("approve")} aria-keyshortcuts="a" disabled={!hydrated}>
              {t("approve")}
            </Button>
          ) : null}
          {canReject ? (
            <Button
              type="button"
              variant="outline"
              onClick={() => openDialog("reject")}
              aria-keyshortcuts="r"
              disabled={!hydrated}
            >
              {t("reject")}
            </Button>
          ) : null}
        </div>
      ) : null}

      <Dialog open={open === "approve"} onOpenChange={(o) => setOpen(o ? "approve" : null)}>
        <DialogContent
          closeLabel={t("cancel")}
          aria-describedby="approve-four-eyes"
          // Keyboard-first: focus lands on what the reviewer does next (the password when due, else confirm).
          onOpenAutoFocus={(e) => {
            e.preventDefault();
            (passwordInput.current ?? confirmButton.current)?.focus();
          }}
        >
          <form onSubmit={onApprove} className="grid gap-4">
            <DialogHeader>
              <DialogTitle>{t("approveTitle")}</DialogTitle>
              <DialogDescription id="approve-four-eyes" className="font-medium text-foreground">
                {fourEyes}
              </DialogDescription>
            </DialogHeader>
            <p className="confirm-text m-0" data-testid="confirm-text">
              {confirmText}
            </p>
            <p className="m-0 text-sm break-all text-muted-foreground">{t("confirmHash", { hash: p.hash })}</p>
            {p.viewer.hasPasskeys ? (
              <PasskeyApproveButton
                proposalId={p.id}
                hash={p.hash}
                busy={approve.isPending}
                onApprove={(body) => approve.mutate(body)}
                onError={setError}
              />
            ) : null}
            {stepUpDue ? (
              <div className="grid gap-1.5">
                <p className="m-0 text-sm">{t("stepUpNeeded", { minutes: p.viewer.stepUpMinutes })}</p>
                <label htmlFor="step-up-password">{t("password")}</label>
                <Input
                  ref={passwordInput}
                  id="step-up-password"
                  name="password"
                  type="password"
                  autoComplete="current-password"
                  required
                />
              </div>
            ) : null}
            {dialogError}
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => setOpen(null)}>
                {t("cancel")}
              </Button>
              <Button ref={confirmButton} type="submit" disabled={approve.isPending || expiredWhileOpen}>
                {approve.isPending ? t("working") : t("confirmApprove")}
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>

      <Dialog open={open === "reject"} onOpenChange={(o) => setOpen(o ? "reject" : null)}>
        <DialogContent
          closeLabel={t("cancel")}
          onOpenAutoFocus={(e) => {
            e.preventDefault();
            reasonInput.current?.focus();
          }}
        >
          <form onSubmit={onReject} className="grid gap-4">
            <DialogHeader>
              <DialogTitle>{t("rejectTitle")}</DialogTitle>
              <DialogDescription>{t("rejectHelp")}</DialogDescription>
            </DialogHeader>
            <p className="confirm-text m-0">{confirmText}</p>
            {/* Kept in state: if the proposal expires while the dialog is open, what was typed stays. */}
            <RejectFields
              idPrefix="reject"
              reason={reason}
              onReason={setReason}
              internalNote={internalNote}
              onInternalNote={setInternalNote}
              reasonRef={reasonInput}
            />
            {dialogError}
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => setOpen(null)}>
                {t("cancel")}
              </Button>
              <Button type="submit" variant="destructive" disabled={reject.isPending || expiredWhileOpen}>
                {reject.isPending ? t("working") : t("confirmReject")}
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </>
  );
}
