"use client";

import { useActionState, useState } from "react";
import { useTranslations } from "next-intl";
import { saveReviewWebhook, type ReviewWebhookFormState } from "../actions";

type Props = { currentUrl: string | null };

const initial: ReviewWebhookFormState = { status: "idle" };

export function ReviewWebhookForm({ currentUrl }: Props) {
  const t = useTranslations("webhook");
  const [state, formAction, pending] = useActionState(saveReviewWebhook, initial);
  const error = state.status === "error" ? state.problem : null;

  return (
    <div className="stack">
      {error ? (
        <div className="error-box" role="alert" id="review-webhook-error">
          {t(`problems.${error}`)}
        </div>
      ) : null}
      {state.status === "saved" ? <SecretOnce secret={state.secret} /> : null}
      {state.status === "cleared" ? (
        <p role="status" className="muted">
          {t("cleared")}
        </p>
      ) : null}

      <form action={formAction} noValidate aria-describedby={error ? "review-webhook-error" : undefined}>
        <div className="field">
          <label htmlFor="review-webhook-url">{t("url")}</label>
          <input
            id="review-webhook-url"
            name="url"
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            placeholder="https://hooks.example.com/review"
            defaultValue={currentUrl ?? ""}
            aria-invalid={error && error !== "internal_error" ? true : undefined}
            aria-describedby="review-webhook-help"
          />
          <p id="review-webhook-help" className="muted">
            {t("help")}
          </p>
        </div>
        <div>
          <button type="submit" name="intent" value="save" disabled={pending}>
            {pending ? t("saving") : currentUrl ? t("saveRotate") : t("save")}
          </button>{" "}
          {currentUrl ? (
            <button type="submit" name="intent" value="clear" className="secondary" disabled={pending}>
              {t("clear")}
            </button>
          ) : null}
        </div>
      </form>
    </div>
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
      <div className="field">
        <label htmlFor="review-webhook-secret">{t("secretLabel")}</label>
        <input id="review-webhook-secret" className="mono" readOnly value={secret} onFocus={(e) => e.currentTarget.select()} />
      </div>
      <button type="button" className="secondary" onClick={copy}>
        {t("copy")}
      </button>{" "}
      <span aria-live="polite" className="muted">
        {copied === "copied" ? t("copied") : copied === "failed" ? t("copyFailed") : ""}
      </span>
    </div>
  );
}
