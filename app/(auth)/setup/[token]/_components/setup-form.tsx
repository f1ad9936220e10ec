"use client";

import Link from "next/link";
import { useActionState } from "react";
import { useTranslations } from "next-intl";
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
  if (state.status === "signingIn") {
    return (
      <p className="notice" role="status">
        {t("signingIn")}
      </p>
    );
  }
  if (state.status === "done") {
    return (
      <div className="stack">
        <p className="notice" role="status">
          {t("done")}
        </p>
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
      <div className="field">
        <label htmlFor="setup-email">{t("email")}</label>
        <input id="setup-email" type="email" value={email} readOnly autoComplete="username" />
      </div>
      <div className="field">
        <label htmlFor="setup-password">{t("password")}</label>
        <input
          id="setup-password"
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={minLength}
          required
          aria-describedby="setup-help"
        />
        <p id="setup-help" className="muted">
          {t("help", { min: minLength })}
        </p>
      </div>
      <div className="field">
        <label htmlFor="setup-confirm">{t("confirm")}</label>
        <input
          id="setup-confirm"
          name="confirm"
          type="password"
          autoComplete="new-password"
          minLength={minLength}
          required
        />
      </div>
      <button type="submit" disabled={pending}>
        {pending ? t("saving") : t("submit")}
      </button>
    </form>
  );
}
