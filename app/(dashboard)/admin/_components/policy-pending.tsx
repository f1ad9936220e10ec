"use client";

import { ClientForm } from "@/components/forms/client-form";
import { useTranslations } from "next-intl";
import { useAdminRequest } from "./use-admin-request";
import { StepUpField, stepUpValue } from "./step-up-field";
import { FormError } from "./form-error";
import { ChangeTable, type PolicyChange } from "./policy-change-table";
import { ClientButton } from "@/components/ui/client-button";

export type PendingPolicy = { version: number; changes: PolicyChange[]; mine: boolean };

/** The policy change waiting for a second admin: its diff, and approve / reject for any admin but its author. */
export function PolicyPending({
  pending,
  currency,
  onResult,
}: {
  pending: PendingPolicy;
  currency: string;
  onResult: (text: string) => void;
}) {
  const t = useTranslations("policy");
  const decide = useAdminRequest<{ version: number; status: string }>();
  return (
    <div className="stack" aria-labelledby="pending-title">
      <h3 id="pending-title">{t("pendingTitle", { version: pending.version })}</h3>
      <ChangeTable
        label={t("pendingTitle", { version: pending.version })}
        changes={pending.changes}
        currency={currency}
      />
      <FormError id="decide-error" error={decide.error} />
      {pending.mine ? (
        <p className="muted">{t("ownPending")}</p>
      ) : (
        <ClientForm
          onSubmit={async (e) => {
            e.preventDefault();
            const r = await decide.run(
              "POST",
              `/api/admin/policy/${pending.version}/approve`,
              stepUpValue(new FormData(e.currentTarget)),
            );
            if (r) onResult(t("activeNow", { version: r.version }));
          }}
        >
          <StepUpField id="decide-step-up" show={decide.needsStepUp} />
          <button type="submit" disabled={decide.pending}>
            {t("approve", { version: pending.version })}
          </button>
        </ClientForm>
      )}
      <ClientButton
        type="button"
        className="secondary"
        disabled={decide.pending}
        onClick={async () =>
          (await decide.run("POST", `/api/admin/policy/${pending.version}/reject`, {})) &&
          onResult(t("rejected", { version: pending.version }))
        }
      >
        {t("reject", { version: pending.version })}
      </ClientButton>
    </div>
  );
}
