"use client";

import { useActionState } from "react";
import { useTranslations } from "next-intl";
import { saveSlackWebhook, type SlackWebhookFormState } from "../slack-actions";

const initial: SlackWebhookFormState = { status: "idle" };

/** Set or clear the tenant's Slack-compatible incoming webhook. The saved URL is never shown back (only its host). */
export function SlackWebhookForm({ host }: { host: string | null }) {
  const t = useTranslations("notifications.slackAdmin");
  const [state, formAction, pending] = useActionState(saveSlackWebhook, initial);
  const error = state.status === "error" ? state.problem : null;
  return (
    <div className="stack">
      {error ? (
        <div className="error-box" role="alert" id="slack-webhook-error">
          {t(`problems.${error}`)}
        </div>
      ) : null}
      {state.status === "saved" || state.status === "cleared" ? (
        <p role="status" className="muted">
          {state.status === "saved" ? t("saved") : t("cleared")}
        </p>
      ) : null}
      <form action={formAction} noValidate aria-describedby={error ? "slack-webhook-error" : undefined}>
        <div className="field">
          <label htmlFor="slack-webhook-url">{t("url")}</label>
          <input
            id="slack-webhook-url"
            name="url"
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            placeholder="https://hooks.slack.com/services/…"
            aria-invalid={error && error !== "internal_error" ? true : undefined}
            aria-describedby="slack-webhook-help"
          />
          <p id="slack-webhook-help" className="muted">
            {t("help")}
          </p>
        </div>
        <div>
          <button type="submit" name="intent" value="save" disabled={pending}>
            {pending ? t("saving") : t("save")}
          </button>{" "}
          {host ? (
            <button type="submit" name="intent" value="clear" className="secondary" disabled={pending}>
              {t("clear")}
            </button>
          ) : null}
        </div>
      </form>
    </div>
  );
}
