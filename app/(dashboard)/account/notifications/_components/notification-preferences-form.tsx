"use client";

import { ClientForm } from "@/components/forms/client-form";
import { useState } from "react";
import { useTranslations } from "next-intl";
import { api, ApiError } from "@/lib/queries/api";
import { notificationPreferencesDto, type NotificationPreferencesDto } from "@/lib/schemas/notifications";

type Switch = "emailNewProposal" | "emailExpiring" | "emailInDoubt";
const switches: {
  key: Switch;
  applies: keyof NotificationPreferencesDto["applies"];
  label: "newProposal" | "expiring" | "inDoubt";
}[] = [
  { key: "emailNewProposal", applies: "newProposal", label: "newProposal" },
  { key: "emailExpiring", applies: "expiring", label: "expiring" },
  { key: "emailInDoubt", applies: "inDoubt", label: "inDoubt" },
];

/** Three checkboxes and a save button; the answer of the PUT (the stored values) replaces the form's state. */
export function NotificationPreferencesForm({ initial }: { initial: NotificationPreferencesDto }) {
  const t = useTranslations("notifications.prefs");
  const [prefs, setPrefs] = useState(initial);
  const [state, setState] = useState<{ status: "idle" | "saving" | "saved" } | { status: "error"; message: string }>({
    status: "idle",
  });

  async function save(form: HTMLFormElement) {
    const data = new FormData(form);
    const body = Object.fromEntries(
      switches.filter((s) => prefs.applies[s.applies]).map((s) => [s.key, data.get(s.key) === "on"]),
    );
    setState({ status: "saving" });
    try {
      const saved = await api("/api/account/notifications", notificationPreferencesDto, {
        method: "PUT",
        body: JSON.stringify(body),
      });
      setPrefs(saved);
      setState({ status: "saved" });
    } catch (error) {
      setState({ status: "error", message: error instanceof ApiError ? error.message : String(error) });
    }
  }

  return (
    <ClientForm
      className="stack"
      onSubmit={(e) => {
        e.preventDefault();
        void save(e.currentTarget);
      }}
    >
      <fieldset className="grid gap-3">
        <legend className="sr-only">{t("title")}</legend>
        {switches.map((s) => {
          const applies = prefs.applies[s.applies];
          const help =
            s.label === "expiring" ? t("expiringHelp", { minutes: prefs.expiringWithinMinutes }) : t(`${s.label}Help`);
          return (
            <div key={s.key} className="flex items-start gap-2">
              <input
                id={`pref-${s.key}`}
                name={s.key}
                type="checkbox"
                className="mt-1"
                defaultChecked={prefs[s.key]}
                disabled={!applies}
                aria-describedby={`pref-${s.key}-help`}
              />
              <div>
                <label htmlFor={`pref-${s.key}`}>{t(s.label)}</label>
                <p id={`pref-${s.key}-help`} className="muted text-sm">
                  {help}
                  {applies ? "" : ` ${t("notForYourRoles")}.`}
                </p>
              </div>
            </div>
          );
        })}
      </fieldset>
      <div>
        <button type="submit" disabled={state.status === "saving"}>
          {state.status === "saving" ? t("saving") : t("save")}
        </button>{" "}
        <span role="status" aria-live="polite" className="muted">
          {state.status === "saved" ? t("saved") : ""}
        </span>
      </div>
      {state.status === "error" ? (
        <div className="error-box" role="alert">
          {state.message}
        </div>
      ) : null}
    </ClientForm>
  );
}
