"use client";

import { ClientForm } from "@/components/forms/client-form";
import { useState } from "react";
import { useTranslations } from "next-intl";
import { Section } from "@/components/page/section";
import { Notice } from "@/components/forms/notice";
import { useAdminRequest } from "./use-admin-request";
import { StepUpField, stepUpValue } from "./step-up-field";
import { FormError } from "./form-error";

type Answer = { status: "applied" | "awaiting_second_admin" };
type Kind = { kind: string; title: string; floor: "reviewers" | "customer" | "both" };

/**
 * Who confirms (PUT /api/admin/confirmation-policy): one checkbox per kind, "the customer confirms too". A kind whose
 * own floor already needs the customer is shown checked and fixed. Ticking applies at once; unticking waits for a
 * second admin (shown under "Changes waiting for a second admin").
 */
export function ConfirmationPolicyForm({ kinds, available }: { kinds: string[]; available: Kind[] }) {
  const t = useTranslations("adminConfirmation");
  const save = useAdminRequest<Answer>();
  const [done, setDone] = useState<string | null>(null);
  return (
    <Section titleId="confirmation-policy-title" title={t("title")} className="stack">
      <p className="muted">{t("intro")}</p>
      <Notice>{done}</Notice>
      <ClientForm
        className="panel stack"
        aria-labelledby="confirmation-policy-title"
        onSubmit={async (e) => {
          setDone(null);
          const r = await save.submit(e, "PUT", "/api/admin/confirmation-policy", (f) => ({
            kinds: f.getAll("kinds").map(String),
            ...stepUpValue(f),
          }));
          if (r) setDone(r.status === "applied" ? t("applied") : t("waiting"));
        }}
      >
        <FormError id="confirmation-policy-error" error={save.error} />
        <fieldset>
          <legend>{t("legend")}</legend>
          {available.map((k) => {
            const fixed = k.floor !== "reviewers";
            return (
              <div key={k.kind} className="flex items-start gap-2">
                <input
                  id={`confirmation-${k.kind}`}
                  type="checkbox"
                  className="mt-1"
                  name={fixed ? undefined : "kinds"}
                  value={k.kind}
                  defaultChecked={fixed || kinds.includes(k.kind)}
                  disabled={fixed}
                />
                <label htmlFor={`confirmation-${k.kind}`}>
                  {k.title}
                  {fixed ? <span className="muted"> — {t("always")}</span> : null}
                </label>
              </div>
            );
          })}
        </fieldset>
        <StepUpField id="confirmation-policy-step-up" show={save.needsStepUp} />
        <button type="submit" disabled={save.pending}>
          {t("save")}
        </button>
      </ClientForm>
    </Section>
  );
}
