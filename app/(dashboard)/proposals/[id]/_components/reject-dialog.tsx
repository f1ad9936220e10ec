"use client";

import { useRef } from "react";
import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { RejectFields } from "@/components/reviewer/reject-fields";
import { DialogNotes } from "./decision-notes";
import type { Decision } from "./use-decision";

/** The rejection's confirmation: the message the customer gets and an optional staff-only note. */
export function RejectDialog({ d }: { d: Decision }) {
  const t = useTranslations("proposal");
  const reasonInput = useRef<HTMLTextAreaElement>(null);
  return (
    <Dialog open={d.open === "reject"} onOpenChange={(o) => d.setOpen(o ? "reject" : null)}>
      <DialogContent
        closeLabel={t("cancel")}
        onOpenAutoFocus={(e) => {
          e.preventDefault();
          reasonInput.current?.focus();
        }}
      >
        <form onSubmit={d.onReject} className="grid gap-4">
          <DialogHeader>
            <DialogTitle>{t("rejectTitle")}</DialogTitle>
            <DialogDescription>{t("rejectHelp")}</DialogDescription>
          </DialogHeader>
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
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => d.setOpen(null)}>
              {t("cancel")}
            </Button>
            <Button type="submit" variant="destructive" disabled={d.reject.isPending || d.expiredWhileOpen}>
              {d.reject.isPending ? t("working") : t("confirmReject")}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
