import { getTranslations } from "next-intl/server";
import type { Actor } from "@/lib/server/auth/actor";
import { getReviewWebhookSettings } from "@/lib/server/notifications/get-review-webhook-settings";
import { getSlackWebhookSettings } from "@/lib/server/notifications/slack-webhook-settings";
import { Section } from "@/components/page/section";
import { ReviewWebhookForm } from "./review-webhook-form";
import { SlackWebhookForm } from "./slack-webhook-form";

/** Admin page section: the tenant's reviewer webhook (URL, new secret on save); its deliveries are in WebhookDeliveriesSection. */
export async function ReviewWebhookSection({ actor }: { actor: Actor }) {
  const { url, hasSecret } = await getReviewWebhookSettings(actor);
  const t = await getTranslations("webhook");
  return (
    <Section titleId="review-webhook-title" title={t("title")} className="panel">
      <p className="muted">{t("description")}</p>
      <dl className="facts">
        <dt>{t("status")}</dt>
        <dd>
          {url && hasSecret ? <span className="badge">{t("on")}</span> : <span className="badge">{t("off")}</span>}
        </dd>
        {url ? (
          <>
            <dt>{t("url")}</dt>
            <dd className="mono">{url}</dd>
          </>
        ) : null}
      </dl>
      <ReviewWebhookForm currentUrl={url} />

      <p className="muted">{t("deliveriesBelow")}</p>
      <SlackWebhookSection actor={actor} />
    </Section>
  );
}

/** The tenant's Slack-compatible incoming webhook (Block Kit messages for people; notifications/slack-webhook-settings.ts). */
async function SlackWebhookSection({ actor }: { actor: Actor }) {
  const { host } = await getSlackWebhookSettings(actor);
  const t = await getTranslations("notifications.slackAdmin");
  return (
    <Section titleId="slack-webhook-title" title={t("title")} level={3}>
      <p className="muted">{t("description")}</p>
      <dl className="facts">
        <dt>{t("status")}</dt>
        <dd>
          <span className="badge" data-testid="slack-status">
            {host ? t("on", { host }) : t("off")}
          </span>
        </dd>
      </dl>
      <SlackWebhookForm host={host} />
    </Section>
  );
}
