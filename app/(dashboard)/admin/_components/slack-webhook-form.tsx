"use client";

import { useTranslations } from "next-intl";
import { saveSlackWebhook } from "../slack-actions";
import { WebhookUrlForm } from "./webhook-url-form";

/** Set or clear the tenant's Slack-compatible incoming webhook. The saved URL is never shown back (only its host). */
export function SlackWebhookForm({ host }: { host: string | null }) {
  const t = useTranslations("notifications.slackAdmin");
  return (
    <WebhookUrlForm
      id="slack-webhook"
      action={saveSlackWebhook}
      problemText={(problem) => t(`problems.${problem}`)}
      labels={{ url: t("url"), help: t("help"), save: t("save"), saving: t("saving"), clear: t("clear") }}
      placeholder="https://hooks.slack.com/services/…"
      canClear={host !== null}
    >
      {(state) =>
        state.status === "saved" || state.status === "cleared" ? (
          <p role="status" className="muted">
            {state.status === "saved" ? t("saved") : t("cleared")}
          </p>
        ) : null
      }
    </WebhookUrlForm>
  );
}
