"use client";

import { ClientForm } from "@/components/forms/client-form";
import { useState } from "react";
import { useTranslations } from "next-intl";
import { InputField } from "@/components/forms/field";
import { useAdminRequest } from "@/app/(dashboard)/admin/_components/use-admin-request";
import { StepUpField, stepUpValue } from "@/app/(dashboard)/admin/_components/step-up-field";
import { FormError } from "@/app/(dashboard)/admin/_components/form-error";
import { ClientButton } from "@/components/ui/client-button";

/** Rename or remove one of your own passkeys (removal asks for your password when the sign-in is old). */
export function PasskeyRowActions({ id, name }: { id: string; name: string }) {
  const t = useTranslations("passkeyManage");
  const rename = useAdminRequest();
  const remove = useAdminRequest();
  const [editing, setEditing] = useState(false);
  const path = `/api/passkeys/${encodeURIComponent(id)}`;
  return (
    <div className="stack">
      {editing ? (
        <ClientForm
          onSubmit={async (e) => {
            e.preventDefault();
            if (await rename.run("PATCH", path, { name: new FormData(e.currentTarget).get("name") })) setEditing(false);
          }}
        >
          <InputField
            id={`rename-${id}`}
            label={t("newName")}
            name="name"
            defaultValue={name}
            maxLength={64}
            required
          />
          <button type="submit" disabled={rename.pending}>
            {t("save")}
          </button>{" "}
          <ClientButton type="button" className="secondary" onClick={() => setEditing(false)}>
            {t("cancel")}
          </ClientButton>
        </ClientForm>
      ) : (
        <ClientButton
          type="button"
          className="secondary"
          onClick={() => setEditing(true)}
          aria-label={t("renameNamed", { name })}
        >
          {t("rename")}
        </ClientButton>
      )}
      <FormError id={`rename-${id}-error`} error={rename.error} />
      <ClientForm
        onSubmit={async (e) => {
          e.preventDefault();
          await remove.run("DELETE", path, stepUpValue(new FormData(e.currentTarget)));
        }}
      >
        <StepUpField id={`remove-${id}-step-up`} show={remove.needsStepUp} />
        <button type="submit" className="secondary" disabled={remove.pending} aria-label={t("removeNamed", { name })}>
          {t("remove")}
        </button>
      </ClientForm>
      <FormError id={`remove-${id}-error`} error={remove.error} />
    </div>
  );
}
