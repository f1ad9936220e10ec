"use client";

import { useEffect, useRef, useState } from "react";
import { useTranslations } from "next-intl";
import { useAdminRequest } from "./use-admin-request";

export type TenantSettingsValues = {
  slug: string;
  name: string;
  currency: string;
  locale: string;
  timeZone: string;
  currencyLocked: boolean;
};

const fields = ["name", "locale", "timeZone", "currency"] as const;
type Field = (typeof fields)[number];
const isField = (v: string | undefined): v is Field => (fields as readonly string[]).includes(v ?? "");

/**
 * The tenant's own settings (PATCH /api/admin/tenant, validated there): name, locale and time zone; the currency
 * only while the tenant has no orders (their amounts are stored in it), read-only afterwards. A refusal names its
 * field, which is marked invalid and focused.
 */
export function TenantSettingsForm({ settings, timeZones }: { settings: TenantSettingsValues; timeZones: string[] }) {
  const t = useTranslations("tenantSettings");
  const { run, pending, error } = useAdminRequest<TenantSettingsValues>();
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

  const field = (name: Field, extra: React.InputHTMLAttributes<HTMLInputElement> = {}) => ({
    id: `tenant-${name}`,
    name,
    value: values[name],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [name]: e.target.value })),
    ref: (el: HTMLInputElement | null) => {
      inputs.current[name] = el;
    },
    "aria-invalid": invalid === name ? true : undefined,
    "aria-describedby": [`tenant-${name}-help`, invalid === name ? "tenant-settings-error" : null]
      .filter(Boolean)
      .join(" "),
    autoComplete: "off",
    spellCheck: false,
    ...extra,
  });

  return (
    <section aria-labelledby="tenant-settings-title" className="panel">
      <h2 id="tenant-settings-title">{t("title")}</h2>
      <p className="muted">{t("description", { slug: values.slug })}</p>
      {message ? (
        <p className="error-box" role="alert" id="tenant-settings-error">
          {message}
        </p>
      ) : null}
      {saved ? (
        <p className="notice" role="status">
          {t("saved")}
        </p>
      ) : null}
      <form onSubmit={onSubmit} noValidate>
        <div className="field">
          <label htmlFor="tenant-name">{t("name")}</label>
          <input type="text" maxLength={120} {...field("name")} />
          <p id="tenant-name-help" className="muted">
            {t("nameHelp")}
          </p>
        </div>
        <div className="field">
          <label htmlFor="tenant-locale">{t("locale")}</label>
          <input type="text" maxLength={35} {...field("locale")} />
          <p id="tenant-locale-help" className="muted">
            {t("localeHelp")}
          </p>
        </div>
        <div className="field">
          <label htmlFor="tenant-timeZone">{t("timeZone")}</label>
          <input type="text" maxLength={64} list="tenant-time-zones" {...field("timeZone")} />
          <datalist id="tenant-time-zones">
            {timeZones.map((z) => (
              <option key={z} value={z} />
            ))}
          </datalist>
          <p id="tenant-timeZone-help" className="muted">
            {t("timeZoneHelp")}
          </p>
        </div>
        <div className="field">
          <label htmlFor="tenant-currency">{t("currency")}</label>
          <input
            type="text"
            maxLength={3}
            autoCapitalize="characters"
            readOnly={values.currencyLocked}
            className={values.currencyLocked ? "bg-muted" : undefined}
            {...field("currency")}
          />
          <p id="tenant-currency-help" className="muted">
            {values.currencyLocked ? t("currencyLocked") : t("currencyHelp")}
          </p>
        </div>
        <button type="submit" disabled={pending}>
          {pending ? t("saving") : t("save")}
        </button>
      </form>
    </section>
  );
}
