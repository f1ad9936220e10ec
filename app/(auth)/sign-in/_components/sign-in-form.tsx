"use client";

import { useState, type FormEvent } from "react";
import { signIn } from "next-auth/react";
import { useFormatter, useTranslations } from "next-intl";
import { signInProblem, type SignInProblem } from "@/lib/domain/sign-in-error";
import { Field, InputField } from "@/components/forms/field";
import { useHydrated } from "@/components/ui/use-hydrated";
import { signedIn, signInWithCsrfRetry } from "../../sign-in-with-csrf-retry";
import { ClientButton } from "@/components/ui/client-button";

type Props = {
  callbackPath: string;
  ssoName: string | null;
  /** The `error` of the page's URL (a native submit or a redirect), if any. */
  initialError: string | null;
  language: "en" | "es";
};

export function SignInForm({ callbackPath, ssoName, initialError, language }: Props) {
  const t = useTranslations("signIn");
  // Until the page is hydrated the form cannot sign in (next-auth's client does): the button stays disabled,
  // and a native submit (Enter before hydration) is a POST to this page — never a GET that would put the
  // password in the URL, the browser history and the server's access logs.
  const hydrated = useHydrated();
  const format = useFormatter();
  const [error, setError] = useState<SignInProblem | null>(
    initialError ? signInProblem(initialError, "ssoFailed") : null,
  );
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    const res = await signInWithCsrfRetry(String(form.get("email") ?? ""), String(form.get("password") ?? ""));
    if (!signedIn(res)) {
      setPending(false);
      setError(signInProblem(res?.error, "failed"));
      return;
    }
    // A full navigation, so every server component renders with the new session.
    window.location.assign(callbackPath);
  }

  function changeLanguage(value: string) {
    document.cookie = `ui-locale=${value === "es" ? "es-ES" : "en-US"}; path=/; max-age=31536000; samesite=lax`;
    window.location.reload();
  }

  return (
    <>
      {error ? (
        <div className="error-box" role="alert" id="sign-in-error">
          {error.kind === "paused"
            ? t("paused", {
                // The viewer's own zone once hydrated (no one is signed in: the app's zone is UTC), always named.
                until: format.dateTime(error.until, {
                  hour: "2-digit",
                  minute: "2-digit",
                  timeZoneName: "short",
                  timeZone: hydrated ? Intl.DateTimeFormat().resolvedOptions().timeZone : "UTC",
                }),
              })
            : t(error.kind)}
        </div>
      ) : null}
      <form method="post" onSubmit={onSubmit} noValidate aria-describedby={error ? "sign-in-error" : undefined}>
        <InputField id="email" label={t("email")} name="email" type="email" autoComplete="username" required />
        <InputField
          id="password"
          label={t("password")}
          name="password"
          type="password"
          autoComplete="current-password"
          required
        />
        <button type="submit" disabled={pending || !hydrated}>
          {pending ? t("submitting") : t("submit")}
        </button>
      </form>
      {ssoName ? (
        <>
          <p className="muted">{t("or")}</p>
          <ClientButton
            type="button"
            className="secondary"
            onClick={() => signIn("oidc", { callbackUrl: callbackPath })}
          >
            {t("sso", { name: ssoName })}
          </ClientButton>
        </>
      ) : null}
      <Field id="language" label={t("language")} className="field mt-6">
        {(control) => (
          <select {...control} defaultValue={language} onChange={(e) => changeLanguage(e.target.value)}>
            <option value="en">English</option>
            <option value="es">Español</option>
          </select>
        )}
      </Field>
    </>
  );
}
