"use client";

import { useRef } from "react";
import { useTranslations } from "next-intl";
import { DecisionDialog, DecisionForm } from "@/components/forms/decision-dialog";
import { RejectFields } from "@/components/reviewer/reject-fields";
import { DialogNotes } from "./decision-notes";
import type { Decision } from "./use-decision";

/** The rejection's confirmation: the message the customer gets and an optional staff-only note. */
export function RejectDialog({ d }: { d: Decision }) {
  const t = useTranslations("proposal");
  const reasonInput = useRef<HTMLTextAreaElement>(null);
  return (
    <DecisionDialog
      open={d.open === "reject"}
      onOpenChange={(o) => d.setOpen(o ? "reject" : null)}
      closeLabel={t("cancel")}
      focus={() => reasonInput.current}
    >
      <DecisionForm
        onSubmit={d.onReject}
        heading={{ title: t("rejectTitle"), description: t("rejectHelp") }}
        cancel={{ label: t("cancel"), onClick: () => d.setOpen(null) }}
        confirm={{
          label: d.reject.isPending ? t("working") : t("confirmReject"),
          disabled: d.reject.isPending || d.expiredWhileOpen,
          variant: "destructive",
        }}
      >
        <p className="confirm-text m-0">{d.confirmText}</p>
        {/* Kept in state: if the proposal expires while the dialog is open, what was typed stays. */}
        <RejectFields
          idPrefix="reject"
          reason={d.reason}
          onReason={d.setReason}
          internalNote={d.internalNote}
          onInternalNote={d.setInternalNote}
          reasonRef={reasonInput}
        />
        <DialogNotes d={d} />
      </DecisionForm>
    </DecisionDialog>
  );
}
