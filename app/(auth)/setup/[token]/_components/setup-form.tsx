"use client";

import Link from "next/link";
import { useActionState } from "react";
import { useTranslations } from "next-intl";
import { InputField } from "@/components/forms/field";
import { Notice } from "@/components/forms/notice";
import { completeSetupAction, type SetupState } from "../actions";
import { signedIn, signInWithCsrfRetry } from "../../../sign-in-with-csrf-retry";

export function SetupForm({ token, email, minLength }: { token: string; email: string; minLength: number }) {
  const t = useTranslations("setup");
  // Once the password is set, the person is signed in with it (the normal credentials sign-in: lockout,
  // audit, session) and lands on their own work (`/`, landing by role) instead of a sign-in page.
  const [state, action, pending] = useActionState<SetupState | { status: "signingIn" }, FormData>(
    async (previous, form) => {
      const result = await completeSetupAction(previous.status === "signingIn" ? { status: "idle" } : previous, form);
      if (result.status !== "done") return result;
      if (!signedIn(await signInWithCsrfRetry(email, String(form.get("password") ?? "")))) return result;
      window.location.assign("/");
      return { status: "signingIn" };
    },
    { status: "idle" },
  );
  // The password and its confirmation are held to the same rule.
  const newPassword = { type: "password", autoComplete: "new-password", minLength, required: true } as const;
  if (state.status === "signingIn") {
    return <Notice>{t("signingIn")}</Notice>;
  }
  if (state.status === "done") {
    return (
      <div className="stack">
        <Notice>{t("done")}</Notice>
        <Link href="/sign-in" className="button">
          {t("toSignIn")}
        </Link>
      </div>
    );
  }
  return (
    <form action={action}>
      {state.status === "error" ? (
        <p className="error-box" role="alert" id="setup-error">
          {t(`problems.${state.problem}`, { min: minLength })}
        </p>
      ) : null}
      <input type="hidden" name="token" value={token} />
      <InputField id="setup-email" label={t("email")} type="email" value={email} readOnly autoComplete="username" />
      <InputField
        {...newPassword}
        id="setup-password"
        label={t("password")}
        hint={t("help", { min: minLength })}
        hintId="setup-help"
        name="password"
      />
      <InputField {...newPassword} id="setup-confirm" label={t("confirm")} name="confirm" />
      <button type="submit" disabled={pending}>
        {pending ? t("saving") : t("submit")}
      </button>
    </form>
  );
}
