"use client";

import { ClientForm } from "@/components/forms/client-form";
import { useState, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { InputField } from "@/components/forms/field";
import { browserSupportsWebAuthn, startRegistration } from "@simplewebauthn/browser";
import { registeredPasskeyDto, registrationOptionsDto } from "@/lib/schemas/passkeys";
import { api, ApiError } from "@/lib/queries/proposals";
import { Notice } from "@/components/forms/notice";

/** Registers a passkey on this device: options from the server → the browser's WebAuthn prompt → verify. */
export function RegisterPasskeyForm() {
  const t = useTranslations("passkeys");
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    setNotice(null);
    if (!browserSupportsWebAuthn()) {
      setError(t("unsupported"));
      return;
    }
    const name = String(new FormData(event.currentTarget).get("name") ?? "").trim();
    setPending(true);
    try {
      const optionsJSON = await api("/api/passkeys/registration/options", registrationOptionsDto, {
        method: "POST",
        body: "{}",
      });
      const response = await startRegistration({ optionsJSON });
      const saved = await api("/api/passkeys/registration/verify", registeredPasskeyDto, {
        method: "POST",
        body: JSON.stringify({ response, ...(name ? { name } : {}) }),
      });
      setNotice(t("registered", { name: saved.name }));
      router.refresh();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : t("cancelled"));
    } finally {
      setPending(false);
    }
  }

  return (
    <ClientForm onSubmit={onSubmit} className="passkey-register">
      <Notice>{notice}</Notice>
      {error ? (
        <p className="error-box" role="alert">
          {error}
        </p>
      ) : null}
      <InputField
        id="passkey-name"
        label={t("nameLabel")}
        name="name"
        maxLength={60}
        placeholder={t("namePlaceholder")}
        autoComplete="off"
      />
      <button type="submit" disabled={pending}>
        {pending ? t("waiting") : t("register")}
      </button>
    </ClientForm>
  );
}
