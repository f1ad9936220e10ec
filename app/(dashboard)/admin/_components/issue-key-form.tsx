"use client";

import { ClientForm } from "@/components/forms/client-form";
import { useState, type ReactNode } from "react";
import { useTranslations } from "next-intl";
import { InputField, requiredText } from "@/components/forms/field";
import { Section } from "@/components/page/section";
import { useAdminRequest } from "./use-admin-request";
import { StepUpField, stepUpValue } from "./step-up-field";
import { FormError, ShownOnce } from "./form-error";

/** The optional expiry (a datetime-local field), as the API takes it. */
function expiresAtValue(form: FormData): { expiresAt?: string } {
  const expires = String(form.get("expiresAt") ?? "");
  return expires ? { expiresAt: new Date(expires).toISOString() } : {};
}

/**
 * How a credential is issued (agent keys, integration keys): a label, the kind's own fields (`children`, sent as
 * `fields(form)` returns them), an optional expiry, the password when step-up is due; the new key shown once.
 */
export function IssueKeyForm({
  idPrefix,
  title,
  keyName,
  endpoint,
  fields,
  children,
}: {
  idPrefix: string;
  title: string;
  keyName: string;
  endpoint: string;
  fields: (form: FormData) => Record<string, unknown>;
  children: ReactNode;
}) {
  const t = useTranslations("adminManage");
  const { submit, pending, error, needsStepUp } = useAdminRequest<{ key: string }>();
  const [key, setKey] = useState<string | null>(null);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    const result = await submit(event, "POST", endpoint, (form) => ({
      label: form.get("label"),
      ...fields(form),
      ...expiresAtValue(form),
      ...stepUpValue(form),
    }));
    if (result) setKey(result.key);
  }

  return (
    <Section titleId={`issue-${idPrefix}-title`} title={title} level={3} className="panel">
      {key ? <ShownOnce label={keyName} value={key} note={t("shownOnceNote")} /> : null}
      <FormError id={`issue-${idPrefix}-error`} error={error} />
      <ClientForm onSubmit={onSubmit}>
        <InputField {...requiredText} id={`${idPrefix}-label`} label={t("label")} name="label" maxLength={80} />
        {children}
        <InputField id={`${idPrefix}-expires`} label={t("expiresOptional")} name="expiresAt" type="datetime-local" />
        <StepUpField id={`${idPrefix}-step-up`} show={needsStepUp} />
        <button type="submit" disabled={pending}>
          {pending ? t("working") : t("issueKey")}
        </button>
      </ClientForm>
    </Section>
  );
}
