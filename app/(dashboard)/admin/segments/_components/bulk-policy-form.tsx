"use client";

import { ClientForm } from "@/components/forms/client-form";
import { useState } from "react";
import { useTranslations } from "next-intl";
import { InputField } from "@/components/forms/field";
import { Notice } from "@/components/forms/notice";
import type { BulkPolicyView } from "@/lib/schemas/bulk-message-policy";
import { FormError } from "../../_components/form-error";
import { StepUpField, stepUpValue } from "../../_components/step-up-field";
import { useAdminRequest } from "../../_components/use-admin-request";

const int = (f: FormData, name: string) => Number(String(f.get(name) ?? "").trim());
/** An empty field as null (no cap; the tenant's time zone). */
const orNull = (f: FormData, name: string) => String(f.get(name) ?? "").trim() || null;

type Answer = { status: "applied" | "awaiting_second_admin" };

/**
 * The bulk-message policy (PUT /api/admin/segments/policy): every value, as the server bounds them. Tightening
 * applies at once; loosening waits for a second admin (shown under "Changes waiting for a second admin").
 */
export function BulkPolicyForm({ policy }: { policy: BulkPolicyView }) {
  const t = useTranslations("adminSegments");
  const save = useAdminRequest<Answer>();
  const [done, setDone] = useState<string | null>(null);
  return (
    <ClientForm
      className="panel stack"
      aria-labelledby="bulk-policy-title"
      onSubmit={async (e) => {
        setDone(null);
        const r = await save.submit(
          e,
          "PUT",
          "/api/admin/segments/policy",
          (f) => {
            const cap = orNull(f, "dailyRecipientsCap");
            return {
              recipientsThreshold: int(f, "recipientsThreshold"),
              dailyRecipientsCap: cap === null ? null : Number(cap),
              tolerancePercent: int(f, "tolerancePercent"),
              windowStartHour: int(f, "windowStartHour"),
              windowEndHour: int(f, "windowEndHour"),
              timeZone: orNull(f, "timeZone"),
              ...stepUpValue(f),
            };
          },
          true,
        );
        if (r) setDone(r.status === "applied" ? t("policySaved") : t("policyWaiting"));
      }}
    >
      <h2 id="bulk-policy-title">{t("policyTitle")}</h2>
      <p className="muted">{t("policyHint")}</p>
      <InputField
        id="bulk-threshold"
        name="recipientsThreshold"
        type="number"
        min={1}
        max={10_000}
        required
        label={t("threshold")}
        defaultValue={policy.recipientsThreshold}
      />
      <InputField
        id="bulk-cap"
        name="dailyRecipientsCap"
        type="number"
        min={1}
        label={t("cap")}
        hint={t("capHint")}
        defaultValue={policy.dailyRecipientsCap ?? ""}
      />
      <InputField
        id="bulk-tolerance"
        name="tolerancePercent"
        type="number"
        min={0}
        max={100}
        required
        label={t("tolerance")}
        defaultValue={policy.tolerancePercent}
      />
      <InputField
        id="bulk-start"
        name="windowStartHour"
        type="number"
        min={0}
        max={23}
        required
        label={t("startHour")}
        defaultValue={policy.windowStartHour}
      />
      <InputField
        id="bulk-end"
        name="windowEndHour"
        type="number"
        min={1}
        max={24}
        required
        label={t("endHour")}
        defaultValue={policy.windowEndHour}
      />
      <InputField
        id="bulk-zone"
        name="timeZone"
        label={t("timeZone")}
        hint={t("timeZoneHint", { zone: policy.timeZone })}
        defaultValue={policy.ownTimeZone ? policy.timeZone : ""}
      />
      <StepUpField id="bulk-step-up" show={save.needsStepUp} />
      <FormError id="bulk-policy-error" error={save.error} />
      <Notice>{done}</Notice>
      <div>
        <button type="submit" disabled={save.pending}>
          {save.pending ? t("saving") : t("policySave")}
        </button>
      </div>
    </ClientForm>
  );
}
