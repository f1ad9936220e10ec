"use client";

import { useTranslations } from "next-intl";
import { WebhookUrlForm } from "./webhook-url-form";

/** The input problems the Slack URL can have (webhook-url.ts, and https only), each with its words. */
const problems = ["invalid", "protocol", "https_required", "credentials", "private_address", "too_long"] as const;

/** Set or clear the tenant's Slack-compatible incoming webhook. The saved URL is never shown back (only its host). */
export function SlackWebhookForm({ host }: { host: string | null }) {
  const t = useTranslations("notifications.slackAdmin");
  return (
    <WebhookUrlForm<{ host: string | null }>
      id="slack-webhook"
      path="/api/admin/slack-webhook"
      problems={problems}
      problemText={(problem) => t(`problems.${problem}`)}
      labels={{ url: t("url"), help: t("help"), save: t("save"), saving: t("saving"), clear: t("clear") }}
      placeholder="https://hooks.slack.com/services/…"
      canClear={host !== null}
      resetOnSave
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
