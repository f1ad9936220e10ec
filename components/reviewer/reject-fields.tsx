"use client";

import type { Ref } from "react";
import { useTranslations } from "next-intl";
import { CUSTOMER_MESSAGE_MAX, CUSTOMER_MESSAGE_MIN, INTERNAL_NOTE_MAX } from "@/lib/domain/decision-text-limits";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/textarea";

/** The preset reasons offered when rejecting (messages "rejectPresets"). */
export const presetReasons = ["not_eligible", "already_resolved", "needs_evidence", "amount_wrong"] as const;

/**
 * The fields of a rejection — preset reasons, the message for the customer, the staff-only internal note —
 * shared by the proposal's reject dialog and the queue's bulk reject, so both ask the same thing the same way.
 * The values live in the caller's state (what was typed survives a re-render or an expiry while open).
 */
export function RejectFields({
  idPrefix,
  reason,
  onReason,
  internalNote,
  onInternalNote,
  reasonRef,
}: {
  idPrefix: string;
  reason: string;
  onReason: (value: string) => void;
  internalNote: string;
  onInternalNote: (value: string) => void;
  reasonRef?: Ref<HTMLTextAreaElement>;
}) {
  const t = useTranslations("proposal");
  const tp = useTranslations("rejectPresets");
  return (
    <>
      <fieldset className="m-0 grid gap-2 border-0 p-0">
        <legend className="mb-2 text-sm font-medium">{t("rejectPresets")}</legend>
        <div className="flex flex-wrap gap-2">
          {presetReasons.map((k) => (
            <Button key={k} type="button" size="sm" variant="secondary" onClick={() => onReason(tp(k))}>
              {tp(`${k}_short`)}
            </Button>
          ))}
        </div>
      </fieldset>
      <div className="grid gap-1.5">
        <label htmlFor={`${idPrefix}-reason`}>{t("rejectCustomerMessage")}</label>
        <Textarea
          ref={reasonRef}
          id={`${idPrefix}-reason`}
          name="reason"
          required
          minLength={CUSTOMER_MESSAGE_MIN}
          maxLength={CUSTOMER_MESSAGE_MAX}
          value={reason}
          onChange={(e) => onReason(e.target.value)}
        />
      </div>
      <div className="grid gap-1.5">
        <label htmlFor={`${idPrefix}-internal-note`}>{t("rejectInternalNote")}</label>
        <Textarea
          id={`${idPrefix}-internal-note`}
          name="internalNote"
          maxLength={INTERNAL_NOTE_MAX}
          value={internalNote}
          onChange={(e) => onInternalNote(e.target.value)}
        />
      </div>
    </>
  );
}
