"use client";

import { ClientForm } from "@/components/forms/client-form";
import { useState } from "react";
import { useTranslations } from "next-intl";
import { CheckboxGroup } from "@/components/forms/checkbox-group";
import { InputField, requiredText } from "@/components/forms/field";
import { roles } from "@/lib/domain/permissions";
import { Section } from "@/components/page/section";
import { Notice } from "@/components/forms/notice";
import { useAdminRequest } from "./use-admin-request";
import { StepUpField, stepUpValue } from "./step-up-field";
import { FormError, ShownOnce } from "./form-error";

export function InviteStaffForm() {
  const t = useTranslations("adminManage");
  const tr = useTranslations("roles");
  const { submit, pending, error, needsStepUp } = useAdminRequest<{
    id?: string;
    setupUrl?: string;
    change?: { id: string };
  }>();
  const [link, setLink] = useState<string | null>(null);
  const [waits, setWaits] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    const body = (form: FormData) => ({
      email: form.get("email"),
      name: form.get("name"),
      roles: form.getAll("roles"),
      ...stepUpValue(form),
    });
    // Emptied once accepted, ready for the next invitation.
    const result = await submit(event, "POST", "/api/admin/staff", body, true);
    if (result) {
      // An invitation with the admin role only waits for a second admin: no account, no link yet.
      setLink(result.setupUrl ?? null);
      setWaits(!!result.change);
    }
  }

  return (
    <Section titleId="invite-title" title={t("inviteTitle")} level={3} className="panel">
      {link ? <ShownOnce label={t("setupLink")} value={link} note={t("setupLinkNote")} /> : null}
      {waits ? <Notice>{t("waitsForSecond")}</Notice> : null}
      <FormError id="invite-error" error={error} />
      <ClientForm onSubmit={onSubmit} aria-describedby={error ? "invite-error" : undefined}>
        <InputField {...requiredText} id="invite-email" label={t("email")} name="email" type="email" />
        <InputField {...requiredText} id="invite-name" label={t("name")} name="name" />
        <CheckboxGroup
          legend={t("roles")}
          note={t("adminLevelNote")}
          name="roles"
          choices={roles}
          label={(r) => tr(r)}
        />
        <StepUpField id="invite-step-up" show={needsStepUp} />
        <button type="submit" disabled={pending}>
          {pending ? t("working") : t("invite")}
        </button>
      </ClientForm>
    </Section>
  );
}
