import { getTranslations } from "next-intl/server";
import type { Actor } from "@/lib/server/auth/actor";
import { listWebhookDeliveries } from "@/lib/server/admin/webhook-deliveries";
import { getReviewWebhookSettings } from "@/lib/server/notifications/get-review-webhook-settings";
import { DateTime } from "@/components/ui/date-time";
import { ResendDeliveryButton, SendTestButton } from "./webhook-delivery-actions";

/**
 * Admin page section: the delivery history of the tenant's webhooks — the reviewer webhook and every channel's
 * decision webhook share one outbox (WebhookDelivery) — with "send test" per configured webhook and "resend"
 * per finished delivery, through the JSON API (docs/admin-api.md "Webhooks"). Slack messages and e-mails go
 * through the notification outbox and are not listed here.
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
    <section aria-labelledby="webhook-deliveries-title" className="panel stack">
      <h2 id="webhook-deliveries-title">{t("title")}</h2>
      <p className="muted">{t("description")}</p>

      <h3 id="webhook-tests-title">{t("sendTests")}</h3>
      {reviewOn || withDecisionWebhook.length > 0 ? (
        <div className="stack" aria-labelledby="webhook-tests-title" role="group">
          {reviewOn ? <SendTestButton path="/api/admin/review-webhook/test" label={t("testReview")} /> : null}
          {withDecisionWebhook.map((c) => (
            <SendTestButton key={c.id} path={`/api/admin/channels/${c.id}/decision-webhook/test`} label={t("testDecision", { channel: c.name })} />
          ))}
        </div>
      ) : (
        <p className="muted">{t("noTargets")}</p>
      )}

      {deliveries.length === 0 ? (
        <p className="muted">{t("none")}</p>
      ) : (
        <table aria-labelledby="webhook-deliveries-title">
          <thead>
            <tr>
              <th scope="col">{t("created")}</th>
              <th scope="col">{t("target")}</th>
              <th scope="col">{t("event")}</th>
              <th scope="col">{t("status")}</th>
              <th scope="col">{t("attempts")}</th>
              <th scope="col">{t("lastError")}</th>
              <th scope="col">{t("nextAttempt")}</th>
              <th scope="col">{t("deliveredAt")}</th>
              <th scope="col">{t("actions")}</th>
            </tr>
          </thead>
          <tbody>
            {deliveries.map((d) => (
              <tr key={d.id} data-delivery-id={d.id}>
                <td>
                  <DateTime value={d.createdAt} />
                </td>
                <td>{d.channelId ? t("targetDecision", { channel: channelName.get(d.channelId) ?? d.channelId }) : t("targetReview")}</td>
                <td className="mono">{d.event}</td>
                <td>
                  <span className={d.status === "failed" ? "badge danger" : "badge"}>{t(`statuses.${d.status}` as "statuses.pending")}</span>
                </td>
                <td>{d.attempts}</td>
                <td className="mono">{d.lastError ?? (d.lastStatus === null ? "—" : `HTTP ${d.lastStatus}`)}</td>
                <td>{d.nextAttemptAt ? <DateTime value={d.nextAttemptAt} /> : "—"}</td>
                <td>{d.deliveredAt ? <DateTime value={d.deliveredAt} /> : "—"}</td>
                <td>
                  {d.status === "pending" ? null : <ResendDeliveryButton id={d.id} label={t("resendNamed", { event: d.event, ref: d.id.slice(0, 8) })} />}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
