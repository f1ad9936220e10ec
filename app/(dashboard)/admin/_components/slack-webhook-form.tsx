"use client";

import { useActionState } from "react";
import { useTranslations } from "next-intl";
import { saveSlackWebhook, type SlackWebhookFormState } from "../slack-actions";
import { WebhookUrlForm } from "./webhook-url-form";

const initial: SlackWebhookFormState = { status: "idle" };

/** Set or clear the tenant's Slack-compatible incoming webhook. The saved URL is never shown back (only its host). */
export function SlackWebhookForm({ host }: { host: string | null }) {
  const t = useTranslations("notifications.slackAdmin");
  const [state, formAction, pending] = useActionState(saveSlackWebhook, initial);
  const error = state.status === "error" ? state.problem : null;
  return (
    <WebhookUrlForm
      id="slack-webhook"
      formAction={formAction}
      pending={pending}
      error={error}
      errorText={error ? t(`problems.${error}`) : null}
      labels={{ url: t("url"), help: t("help"), save: t("save"), saving: t("saving"), clear: t("clear") }}
      placeholder="https://hooks.slack.com/services/…"
      canClear={host !== null}
    >
      {state.status === "saved" || state.status === "cleared" ? (
        <p role="status" className="muted">
          {state.status === "saved" ? t("saved") : t("cleared")}
        </p>
      ) : null}
    </WebhookUrlForm>
  );
}
