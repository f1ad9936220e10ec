"use client";

import { useRef, useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useFormatter, useLocale, useTranslations } from "next-intl";
import { api, ApiError, proposalKeys } from "@/lib/queries/proposals";
import { proposalStatus } from "@/lib/domain/proposal-state";
import { approvalResultDto, rejectResultDto, type ProposalDetail } from "@/lib/schemas/proposal-dto";
import { formatMinor } from "@/lib/domain/format-money";
import { DialogActions } from "@/components/ui/dialog-actions";
import type { StepUpInput } from "@/lib/schemas/proposals";
import { PasskeyApproveButton } from "./passkey-approve-button";

/**
 * Approve / reject for reviewers. The confirmation restates exactly what will happen, and the request
 * carries the hash that was on screen; the server recomputes it and refuses any difference.
 */
export function DecisionPanel({ proposal: p }: { proposal: ProposalDetail }) {
  const t = useTranslations("proposal");
  const locale = useLocale();
  const format = useFormatter();
  const queryClient = useQueryClient();
  const approveRef = useRef<HTMLDialogElement>(null);
  const rejectRef = useRef<HTMLDialogElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [needsStepUp, setNeedsStepUp] = useState(false);

  const invalidate = () => queryClient.invalidateQueries({ queryKey: proposalKeys.all });

  const approve = useMutation({
    mutationFn: (body: { hash: string; stepUp?: StepUpInput }) =>
      api(`/api/proposals/${p.id}/approve`, approvalResultDto, { method: "POST", body: JSON.stringify(body) }),
    onSuccess: (r) => {
      approveRef.current?.close();
      setError(null);
      setNotice(r.status === proposalStatus.approved ? t("approvedNotice") : t("partialNotice", { count: r.approvals, required: r.requiredApprovals }));
    },
    onError: (e) => {
      if (e instanceof ApiError && e.details.reason === "step_up_required") setNeedsStepUp(true);
      setError(e.message);
    },
    onSettled: invalidate,
  });
  const reject = useMutation({
    mutationFn: (body: { hash: string; reason: string }) => api(`/api/proposals/${p.id}/reject`, rejectResultDto, { method: "POST", body: JSON.stringify(body) }),
    onSuccess: () => {
      rejectRef.current?.close();
      setError(null);
      setNotice(t("rejectedNotice"));
    },
    onError: (e) => setError(e.message),
    onSettled: invalidate,
  });

  // eslint-disable-next-line react-hooks/purity -- the step-up window is judged at render; the server re-checks it on submit
  const stepUpDue = needsStepUp || Date.now() > new Date(p.viewer.stepUpAfter).getTime();
  const expires = format.dateTime(new Date(p.expiresAt), { hour: "2-digit", minute: "2-digit" });
  const confirmText = t("confirm", {
    amount: formatMinor(p.amountMinor, p.currency, locale),
    recipient: p.recipient.display,
    holder: p.recipient.holder,
    order: p.order.number,
    expires,
  });

  function onApprove(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get("password") ?? "");
    approve.mutate({ hash: p.hash, ...(stepUpDue && password ? { stepUp: { method: "password" as const, password } } : {}) });
  }
  function onReject(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    reject.mutate({ hash: p.hash, reason: String(new FormData(event.currentTarget).get("reason") ?? "") });
  }

  const status = (
    <>
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      {error ? (
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

  return (
    <>
      {status}
      {p.viewer.alreadyApproved ? <p className="muted">{t("alreadyApproved")}</p> : null}
      {p.viewer.ownRequest ? <p className="muted">{t("ownRequest")}</p> : null}
      <div className="row-actions">
        {p.viewer.canDecide ? (
          <button type="button" onClick={() => { setError(null); approveRef.current?.showModal(); }}>
            {t("approve")}
          </button>
        ) : null}
        {p.viewer.canReject ? (
          <button type="button" className="secondary" onClick={() => { setError(null); rejectRef.current?.showModal(); }}>
            {t("reject")}
          </button>
        ) : null}
      </div>

      <dialog ref={approveRef} aria-labelledby="approve-title">
        <form onSubmit={onApprove}>
          <h2 id="approve-title">{t("approveTitle")}</h2>
          <p className="confirm-text" data-testid="confirm-text">
            {confirmText}
          </p>
          <p className="muted">{t("confirmHash", { hash: p.hash })}</p>
          {p.viewer.hasPasskeys ? <PasskeyApproveButton proposalId={p.id} hash={p.hash} busy={approve.isPending} onApprove={(body) => approve.mutate(body)} onError={setError} /> : null}
          {stepUpDue ? (
            <div className="field">
              <p>{t("stepUpNeeded", { minutes: p.viewer.stepUpMinutes })}</p>
              <label htmlFor="step-up-password">{t("password")}</label>
              <input id="step-up-password" name="password" type="password" autoComplete="current-password" required />
            </div>
          ) : null}
          <DialogActions dialogRef={approveRef} error={error} pending={approve.isPending} submitLabel={t("confirmApprove")} pendingLabel={t("working")} cancelLabel={t("cancel")} />
        </form>
      </dialog>

      <dialog ref={rejectRef} aria-labelledby="reject-title">
        <form onSubmit={onReject}>
          <h2 id="reject-title">{t("rejectTitle")}</h2>
          <p className="confirm-text">{confirmText}</p>
          <div className="field">
            <label htmlFor="reject-reason">{t("rejectReason")}</label>
            <textarea id="reject-reason" name="reason" required minLength={3} maxLength={500} />
          </div>
          <DialogActions dialogRef={rejectRef} error={error} pending={reject.isPending} submitLabel={t("confirmReject")} pendingLabel={t("working")} cancelLabel={t("cancel")} />
        </form>
      </dialog>
    </>
  );
}
