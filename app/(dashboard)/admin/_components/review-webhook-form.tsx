"use client";

import { useState } from "react";
import { useTranslations } from "next-intl";
import { InputField } from "@/components/forms/field";
import { WebhookUrlForm } from "./webhook-url-form";
import { ClientButton } from "@/components/ui/client-button";

/** The input problems the reviewer webhook's URL can have (webhook-url.ts), each with its words. */
const problems = ["invalid", "protocol", "credentials", "private_address", "too_long"] as const;

type Props = { currentUrl: string | null };

export function ReviewWebhookForm({ currentUrl }: Props) {
  const t = useTranslations("webhook");
  return (
    <WebhookUrlForm<{ url: string | null; secret: string | null }>
      id="review-webhook"
      path="/api/admin/review-webhook"
      problems={problems}
      problemText={(problem) => t(`problems.${problem}`)}
      labels={{
        url: t("url"),
        help: t("help"),
        save: currentUrl ? t("saveRotate") : t("save"),
        saving: t("saving"),
        clear: t("clear"),
      }}
      placeholder="https://hooks.example.com/review"
      defaultValue={currentUrl ?? ""}
      canClear={currentUrl !== null}
    >
      {(state) => (
        <>
          {state.status === "saved" && state.answer.secret ? <SecretOnce secret={state.answer.secret} /> : null}
          {state.status === "cleared" ? (
            <p role="status" className="muted">
              {t("cleared")}
            </p>
          ) : null}
        </>
      )}
    </WebhookUrlForm>
  );
}

/** The new signing secret, shown once right after saving, with a copy button. */
function SecretOnce({ secret }: { secret: string }) {
  const t = useTranslations("webhook");
  const [copied, setCopied] = useState<"idle" | "copied" | "failed">("idle");

  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied("copied");
    } catch {
      setCopied("failed");
    }
  }

  return (
    <div className="panel" role="status" aria-labelledby="review-webhook-secret-title">
      <p id="review-webhook-secret-title">
        <strong>{t("secretTitle")}</strong>
      </p>
      <p>{t("secretOnce")}</p>
      <InputField
        id="review-webhook-secret"
        label={t("secretLabel")}
        className="mono"
        readOnly
        value={secret}
        onFocus={(e) => e.currentTarget.select()}
      />
      <ClientButton type="button" className="secondary" onClick={copy}>
        {t("copy")}
      </ClientButton>{" "}
      <span aria-live="polite" className="muted">
        {copied === "copied" ? t("copied") : copied === "failed" ? t("copyFailed") : ""}
      </span>
    </div>
  );
}
