"use client";

import { useTranslations } from "next-intl";

/** The password field shown when the server asked to confirm identity (step-up) for this change. */
export function StepUpField({ id, show }: { id: string; show: boolean }) {
  const t = useTranslations("adminManage");
  if (!show) return null;
  return (
    <div className="field">
      <label htmlFor={id}>{t("stepUpPassword")}</label>
      <input id={id} name="stepUpPassword" type="password" autoComplete="current-password" required />
    </div>
  );
}

export function stepUpValue(form: FormData): { stepUpPassword?: string } {
  const v = form.get("stepUpPassword");
  return typeof v === "string" && v !== "" ? { stepUpPassword: v } : {};
}
