"use client";

import { useTranslations } from "next-intl";
import { CheckboxGroup } from "@/components/forms/checkbox-group";
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
      <CheckboxGroup
        legend={t("scopes")}
        name="scopes"
        choices={["orders:write", "orders:read"] as const}
        label={(s) => t(s === "orders:write" ? "scopeOrdersWrite" : "scopeOrdersRead")}
        checked={() => true}
      />
    </IssueKeyForm>
  );
}
