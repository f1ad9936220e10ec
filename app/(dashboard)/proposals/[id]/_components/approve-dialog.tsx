"use client";

import { useRef } from "react";
import { useTranslations } from "next-intl";
import type { ProposalPage } from "@/lib/schemas/proposal-dto";
import { DecisionDialog, DecisionForm } from "@/components/forms/decision-dialog";
import { Input } from "@/components/ui/input";
import { PasskeyApproveButton } from "./passkey-approve-button";
import { DialogNotes } from "./decision-notes";
import type { Decision } from "./use-decision";

/**
 * The approval's confirmation: it restates exactly what will happen (and whether this approval pays or waits
 * for a second reviewer) and the hash it signs; a passkey or the password when a step-up is due.
 */
export function ApproveDialog({ p, d }: { p: ProposalPage; d: Decision }) {
  const t = useTranslations("proposal");
  const refund = p.kind === "refund";
  const confirmButton = useRef<HTMLButtonElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  return (
    <DecisionDialog
      open={d.open === "approve"}
      onOpenChange={(o) => d.setOpen(o ? "approve" : null)}
      closeLabel={t("cancel")}
      describedBy="approve-four-eyes"
      // The password when a step-up is due, else the confirm button.
      focus={() => passwordInput.current ?? confirmButton.current}
    >
      <DecisionForm
        onSubmit={d.onApprove}
        heading={{
          title: t(refund ? "approveTitle" : "kindApproveTitle"),
          description: d.fourEyes,
          descriptionProps: { id: "approve-four-eyes", className: "font-medium text-foreground" },
        }}
        cancel={{ label: t("cancel"), onClick: () => d.setOpen(null) }}
        confirm={{
          label: d.approve.isPending ? t("working") : t(refund ? "confirmApprove" : "kindConfirmApprove"),
          disabled: d.approve.isPending || d.expiredWhileOpen,
        }}
        confirmRef={confirmButton}
      >
        <p className="confirm-text m-0" data-testid="confirm-text">
          {d.confirmText}
        </p>
        {"changedSincePrepared" in p && p.changedSincePrepared ? (
          <p className="m-0 text-sm" data-testid="confirm-order-changed">
            {t("changedSincePrepared")}
          </p>
        ) : null}
        <p className="m-0 text-sm break-all text-muted-foreground">{t("confirmHash", { hash: p.hash })}</p>
        {p.viewer.hasPasskeys ? (
          <PasskeyApproveButton
            proposalId={p.id}
            hash={p.hash}
            busy={d.approve.isPending}
            onApprove={(body) => d.approve.mutate(body)}
            onError={d.setError}
          />
        ) : null}
        {d.stepUpDue ? (
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
        <DialogNotes d={d} />
      </DecisionForm>
    </DecisionDialog>
  );
}
