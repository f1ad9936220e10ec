"use client";

import { ClientForm } from "@/components/forms/client-form";
import { useEffect, useRef, useState } from "react";
import { useTranslations } from "next-intl";
import { InputField } from "@/components/forms/field";
import { Section } from "@/components/page/section";
import { Notice } from "@/components/forms/notice";
import type { TenantSettings } from "@/lib/schemas/tenant";
import { useAdminRequest } from "./use-admin-request";

const fields = ["name", "locale", "timeZone", "currency"] as const;
type Field = (typeof fields)[number];
const isField = (v: string | undefined): v is Field => (fields as readonly string[]).includes(v ?? "");

/**
 * The tenant's own settings (PATCH /api/admin/tenant, validated there): name, locale and time zone; the currency
 * only while the tenant has no orders (their amounts are stored in it), read-only afterwards. A refusal names its
 * field, which is marked invalid and focused.
 */
export function TenantSettingsForm({ settings, timeZones }: { settings: TenantSettings; timeZones: string[] }) {
  const t = useTranslations("tenantSettings");
  const { run, pending, error } = useAdminRequest<TenantSettings>();
  const [values, setValues] = useState(settings);
  const [saved, setSaved] = useState(false);
  const inputs = useRef<Partial<Record<Field, HTMLInputElement | null>>>({});
  const invalid = error?.code === "invalid_arguments" && isField(error.field) ? error.field : null;

  useEffect(() => {
    if (invalid) inputs.current[invalid]?.focus();
  }, [error, invalid]);

  const message = !error
    ? null
    : invalid === "currency" && error.problem === "has_orders"
      ? t("problems.currencyLocked")
      : invalid
        ? t(`problems.${invalid}`)
        : error.message;

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved(false);
    const result = await run("PATCH", "/api/admin/tenant", {
      name: values.name,
      locale: values.locale,
      timeZone: values.timeZone,
      ...(values.currencyLocked ? {} : { currency: values.currency }),
    });
    if (result) {
      setValues(result);
      setSaved(true);
    }
  }

  // Every field is a text input wired the same way: its value in state, refusals marked and described.
  const input = (name: Field) => ({
    id: `tenant-${name}`,
    name,
    label: t(name),
    value: values[name],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [name]: e.target.value })),
    ref: (el: HTMLInputElement | null) => {
      inputs.current[name] = el;
    },
    invalid: invalid === name,
    describedBy: [invalid === name ? "tenant-settings-error" : null],
    type: "text",
    autoComplete: "off",
    spellCheck: false,
  });
  const locked = values.currencyLocked;
  const extra: Record<Field, Partial<React.ComponentProps<typeof InputField>>> = {
    name: { maxLength: 120, hint: t("nameHelp") },
    locale: { maxLength: 35, hint: t("localeHelp") },
    timeZone: { maxLength: 64, hint: t("timeZoneHelp"), list: "tenant-time-zones" },
    currency: {
      maxLength: 3,
      hint: locked ? t("currencyLocked") : t("currencyHelp"),
      autoCapitalize: "characters",
      readOnly: locked,
      className: locked ? "bg-muted" : undefined,
    },
  };

  return (
    <Section titleId="tenant-settings-title" title={t("title")} className="panel">
      <p className="muted">{t("description", { slug: values.slug })}</p>
      {message ? (
        <p className="error-box" role="alert" id="tenant-settings-error">
          {message}
        </p>
      ) : null}
      {saved ? <Notice>{t("saved")}</Notice> : null}
      <ClientForm onSubmit={onSubmit} noValidate>
        {fields.map((name) => (
          <InputField key={name} {...input(name)} {...extra[name]} />
        ))}
        <datalist id="tenant-time-zones">
          {timeZones.map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
        <button type="submit" disabled={pending}>
          {pending ? t("saving") : t("save")}
        </button>
      </ClientForm>
    </Section>
  );
}
