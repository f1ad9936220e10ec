"use client";

import { useState } from "react";
import { useTranslations } from "next-intl";
import { useAdminRequest } from "./use-admin-request";
import { StepUpField, stepUpValue } from "./step-up-field";
import { expiresAtValue } from "./form-values";
import { FormError, ShownOnce } from "./form-error";

/** Issue an integration key for the shop's systems (Orders API); the key is shown once. */
export function IssueIntegrationKeyForm() {
  const t = useTranslations("adminManage");
  const { run, pending, error, needsStepUp } = useAdminRequest<{ key: string }>();
  const [key, setKey] = useState<string | null>(null);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const result = await run("POST", "/api/admin/integration-keys", {
      label: form.get("label"),
      scopes: form.getAll("scopes"),
      ...expiresAtValue(form),
      ...stepUpValue(form),
    });
    if (result) setKey(result.key);
  }

  return (
    <section aria-labelledby="issue-integration-key-title" className="panel">
      <h3 id="issue-integration-key-title">{t("issueIntegrationKeyTitle")}</h3>
      {key ? <ShownOnce label={t("integrationKey")} value={key} note={t("shownOnceNote")} /> : null}
      <FormError id="issue-integration-key-error" error={error} />
      <form onSubmit={onSubmit}>
        <div className="field">
          <label htmlFor="integration-key-label">{t("label")}</label>
          <input id="integration-key-label" name="label" type="text" required maxLength={80} autoComplete="off" />
        </div>
        <fieldset className="field">
          <legend>{t("scopes")}</legend>
          <label>
            <input type="checkbox" name="scopes" value="orders:write" defaultChecked /> {t("scopeOrdersWrite")}
          </label>
          <label>
            <input type="checkbox" name="scopes" value="orders:read" defaultChecked /> {t("scopeOrdersRead")}
          </label>
        </fieldset>
        <div className="field">
          <label htmlFor="integration-key-expires">{t("expiresOptional")}</label>
          <input id="integration-key-expires" name="expiresAt" type="datetime-local" />
        </div>
        <StepUpField id="integration-key-step-up" show={needsStepUp} />
        <button type="submit" disabled={pending}>
          {pending ? t("working") : t("issueKey")}
        </button>
      </form>
    </section>
  );
}
