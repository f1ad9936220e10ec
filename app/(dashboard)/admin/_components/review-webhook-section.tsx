import { getTranslations } from "next-intl/server";
import type { Actor } from "@/lib/server/auth/actor";
import { getReviewWebhookSettings } from "@/lib/server/notifications/get-review-webhook-settings";
import { DateTime } from "@/components/ui/date-time";
import { getSlackWebhookSettings } from "@/lib/server/notifications/slack-webhook-settings";
import { ReviewWebhookForm } from "./review-webhook-form";
import { SlackWebhookForm } from "./slack-webhook-form";

/** Admin page section: the tenant's reviewer webhook (URL, new secret on save, recent deliveries). */
export async function ReviewWebhookSection({ actor }: { actor: Actor }) {
  const { url, hasSecret, recent } = await getReviewWebhookSettings(actor);
  const t = await getTranslations("webhook");
  return (
    <section aria-labelledby="review-webhook-title" className="panel">
      <h2 id="review-webhook-title">{t("title")}</h2>
      <p className="muted">{t("description")}</p>
      <dl className="facts">
        <dt>{t("status")}</dt>
        <dd>{url && hasSecret ? <span className="badge">{t("on")}</span> : <span className="badge">{t("off")}</span>}</dd>
        {url ? (
          <>
            <dt>{t("url")}</dt>
            <dd className="mono">{url}</dd>
          </>
        ) : null}
      </dl>
      <ReviewWebhookForm currentUrl={url} />

      <h3 id="review-webhook-recent">{t("recent")}</h3>
      {recent.length === 0 ? (
        <p className="muted">{t("noDeliveries")}</p>
      ) : (
        <table aria-labelledby="review-webhook-recent">
          <thead>
            <tr>
              <th scope="col">{t("created")}</th>
              <th scope="col">{t("deliveryStatus")}</th>
              <th scope="col">{t("attempts")}</th>
              <th scope="col">{t("lastResponse")}</th>
              <th scope="col">{t("deliveredAt")}</th>
            </tr>
          </thead>
          <tbody>
            {recent.map((d) => (
              <tr key={d.id}>
                <td>
                  <DateTime value={d.createdAt} />
                </td>
                <td>
                  <span className={d.status === "failed" ? "badge danger" : "badge"}>{t(`statuses.${d.status}`)}</span>
                </td>
                <td>{d.attempts}</td>
                <td className="mono">{d.lastError ?? (d.lastStatus === null ? "—" : `HTTP ${d.lastStatus}`)}</td>
                <td>{d.deliveredAt ? <DateTime value={d.deliveredAt} /> : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <SlackWebhookSection actor={actor} />
    </section>
  );
}

/** The tenant's Slack-compatible incoming webhook (Block Kit messages for people; notifications/slack-webhook-settings.ts). */
async function SlackWebhookSection({ actor }: { actor: Actor }) {
  const { host } = await getSlackWebhookSettings(actor);
  const t = await getTranslations("notifications.slackAdmin");
  return (
    <section aria-labelledby="slack-webhook-title">
      <h3 id="slack-webhook-title">{t("title")}</h3>
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
    </section>
  );
}
