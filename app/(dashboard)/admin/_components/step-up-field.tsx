"use client";

import { useTranslations } from "next-intl";
import { InputField } from "@/components/forms/field";

/** The password field shown when the server asked to confirm identity (step-up) for this change. */
export function StepUpField({ id, show }: { id: string; show: boolean }) {
  const t = useTranslations("adminManage");
  if (!show) return null;
  return (
    <InputField
      id={id}
      label={t("stepUpPassword")}
      name="stepUpPassword"
      type="password"
      autoComplete="current-password"
      required
    />
  );
}

export function stepUpValue(form: FormData): { stepUpPassword?: string } {
  const v = form.get("stepUpPassword");
  return typeof v === "string" && v !== "" ? { stepUpPassword: v } : {};
}
