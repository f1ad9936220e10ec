"use client";

import { useTranslations } from "next-intl";
import { IssueKeyForm } from "./issue-key-form";

/** Issue an integration key for the shop's systems (Orders API): its scopes; the key is shown once. */
export function IssueIntegrationKeyForm() {
  const t = useTranslations("adminManage");
  return (
    <IssueKeyForm
      idPrefix="integration-key"
      title={t("issueIntegrationKeyTitle")}
      keyName={t("integrationKey")}
      endpoint="/api/admin/integration-keys"
      fields={(form) => ({ scopes: form.getAll("scopes") })}
    >
      <fieldset className="field">
        <legend>{t("scopes")}</legend>
        <label>
          <input type="checkbox" name="scopes" value="orders:write" defaultChecked /> {t("scopeOrdersWrite")}
        </label>
        <label>
          <input type="checkbox" name="scopes" value="orders:read" defaultChecked /> {t("scopeOrdersRead")}
        </label>
      </fieldset>
    </IssueKeyForm>
  );
}
