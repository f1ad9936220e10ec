import { getTranslations } from "next-intl/server";
import type { Actor } from "@/lib/server/auth/actor";
import { listWebhookDeliveries } from "@/lib/server/admin/webhook-deliveries";
import { getReviewWebhookSettings } from "@/lib/server/notifications/get-review-webhook-settings";
import { Section } from "@/components/page/section";
import { DeliveryHistoryTable } from "./delivery-history-table";
import { NotificationDeliveriesSection } from "./notification-deliveries-section";
import { SendTestButton } from "./webhook-delivery-actions";

/**
 * Admin page section: the delivery history of the tenant's webhooks — the reviewer webhook and every channel's
 * decision webhook share one outbox (WebhookDelivery) — with "send test" per configured webhook and "resend"
 * per finished delivery, through the JSON API (docs/admin-api.md "Webhooks"). Slack messages and e-mails go
 * through the notification outbox: their history follows in NotificationDeliveriesSection.
 */
export async function WebhookDeliveriesSection({
  actor,
  channels,
}: {
  actor: Actor;
  channels: { id: string; name: string; decisionWebhookUrl: string | null }[];
}) {
  const [deliveries, review] = await Promise.all([listWebhookDeliveries(actor), getReviewWebhookSettings(actor)]);
  const t = await getTranslations("webhookDeliveries");
  const channelName = new Map(channels.map((c) => [c.id, c.name]));
  const withDecisionWebhook = channels.filter((c) => c.decisionWebhookUrl);
  const reviewOn = Boolean(review.url && review.hasSecret);
  return (
    <>
      <Section titleId="webhook-deliveries-title" title={t("title")} className="panel stack">
        <p className="muted">{t("description")}</p>

        <h3 id="webhook-tests-title">{t("sendTests")}</h3>
        {reviewOn || withDecisionWebhook.length > 0 ? (
          <div className="stack" aria-labelledby="webhook-tests-title" role="group">
            {reviewOn ? <SendTestButton path="/api/admin/review-webhook/test" label={t("testReview")} /> : null}
            {withDecisionWebhook.map((c) => (
              <SendTestButton
                key={c.id}
                path={`/api/admin/channels/${c.id}/decision-webhook/test`}
                label={t("testDecision", { channel: c.name })}
              />
            ))}
          </div>
        ) : (
          <p className="muted">{t("noTargets")}</p>
        )}

        <DeliveryHistoryTable
          label={t("title")}
          headings={{ target: t("target"), event: t("event"), lastError: t("lastError"), done: t("deliveredAt") }}
          rows={deliveries.map((d) => ({
            id: d.id,
            createdAt: d.createdAt,
            target: d.channelId
              ? t("targetDecision", { channel: channelName.get(d.channelId) ?? d.channelId })
              : t("targetReview"),
            event: d.event,
            status: t(`statuses.${d.status}` as "statuses.pending"),
            failed: d.status === "failed",
            attempts: d.attempts,
            lastError: d.lastError ?? (d.lastStatus === null ? "—" : `HTTP ${d.lastStatus}`),
            nextAttemptAt: d.nextAttemptAt,
            doneAt: d.deliveredAt,
            resend:
              d.status === "pending"
                ? null
                : {
                    path: `/api/admin/webhook-deliveries/${d.id}/resend`,
                    label: t("resendNamed", { event: d.event, ref: d.id.slice(0, 8) }),
                  },
          }))}
        />
      </Section>
      <NotificationDeliveriesSection actor={actor} />
    </>
  );
}
