"use client";

import { ClientForm } from "@/components/forms/client-form";
import { useState } from "react";
import { useTranslations } from "next-intl";
import { CheckboxGroup } from "@/components/forms/checkbox-group";
import { roles as allRoles } from "@/lib/domain/permissions";
import { Notice } from "@/components/forms/notice";
import { useAdminRequest } from "../../../_components/use-admin-request";
import { StepUpField, stepUpValue } from "../../../_components/step-up-field";
import { FormError, ShownOnce } from "../../../_components/form-error";

type Member = { id: string; roles: string[]; disabled: boolean; locked: boolean; self: boolean };

/** Role change, disable/enable, unlock, sign out everywhere and a new setup link for one staff member. */
export function StaffActions({ member }: { member: Member }) {
  const t = useTranslations("adminManage");
  const tr = useTranslations("roles");
  const { run, pending, error, needsStepUp } = useAdminRequest<{ setupUrl?: string; change?: { id: string } }>();
  const [done, setDone] = useState<string | null>(null);
  const [link, setLink] = useState<string | null>(null);
  const path = `/api/admin/staff/${member.id}`;

  async function submit(
    event: React.FormEvent<HTMLFormElement>,
    body: Record<string, unknown>,
    message: string,
    method: "PATCH" | "POST" = "PATCH",
    url = path,
  ) {
    event.preventDefault();
    setDone(null);
    const form = new FormData(event.currentTarget);
    const result = await run(method, url, { ...body, ...stepUpValue(form) });
    if (result) {
      // An admin-level change (docs/admin-api.md) is not done: it waits for a second admin.
      setDone(result.change ? t("waitsForSecond") : message);
      if (result.setupUrl) setLink(result.setupUrl);
    }
  }

  return (
    <div className="stack">
      <p className="muted">{t("adminLevelNote")}</p>
      <FormError id="staff-error" error={error} />
      <Notice>{done}</Notice>
      {link ? <ShownOnce label={t("setupLink")} value={link} note={t("setupLinkNote")} /> : null}

      <ClientForm
        className="panel"
        aria-labelledby="roles-form-title"
        onSubmit={(e) => submit(e, { roles: new FormData(e.currentTarget).getAll("roles") }, t("rolesSaved"))}
      >
        <h2 id="roles-form-title">{t("roles")}</h2>
        {member.self ? <p className="muted">{t("ownRoles")}</p> : null}
        <CheckboxGroup
          legend={t("rolesLegend")}
          name="roles"
          choices={allRoles}
          label={(r) => tr(r)}
          checked={(r) => member.roles.includes(r)}
          disabled={member.self}
        />
        <StepUpField id="roles-step-up" show={needsStepUp} />
        <button type="submit" disabled={pending || member.self}>
          {t("saveRoles")}
        </button>
      </ClientForm>

      <div className="panel">
        <h2>{t("access")}</h2>
        <div className="row-actions">
          {member.self ? null : (
            <ClientForm
              onSubmit={(e) =>
                submit(e, { disabled: !member.disabled }, member.disabled ? t("enabled") : t("disabledDone"))
              }
            >
              <StepUpField id="disable-step-up" show={needsStepUp} />
              <button type="submit" className={member.disabled ? undefined : "secondary"} disabled={pending}>
                {member.disabled ? t("enable") : t("disable")}
              </button>
            </ClientForm>
          )}
          {member.locked ? (
            <ClientForm onSubmit={(e) => submit(e, { unlock: true }, t("unlocked"))}>
              <button type="submit" className="secondary" disabled={pending}>
                {t("unlock")}
              </button>
            </ClientForm>
          ) : null}
          <ClientForm onSubmit={(e) => submit(e, { signOut: true }, t("signedOut"))}>
            <button type="submit" className="secondary" disabled={pending}>
              {t("signOutEverywhere")}
            </button>
          </ClientForm>
          {member.self || member.disabled ? null : (
            <ClientForm onSubmit={(e) => submit(e, {}, t("linkIssued"), "POST", `${path}/setup-link`)}>
              <StepUpField id="link-step-up" show={needsStepUp} />
              <button type="submit" className="secondary" disabled={pending}>
                {t("newSetupLink")}
              </button>
            </ClientForm>
          )}
        </div>
      </div>
    </div>
  );
}
