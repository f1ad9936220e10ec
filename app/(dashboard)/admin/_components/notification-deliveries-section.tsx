import { getTranslations } from "next-intl/server";
import type { Actor } from "@/lib/server/auth/actor";
import { listNotificationDeliveries } from "@/lib/server/admin/list-notification-deliveries";
import { getSlackWebhookSettings } from "@/lib/server/notifications/slack-webhook-settings";
import { emailEnabled } from "@/lib/server/notifications/mailer";
import { Section } from "@/components/page/section";
import { DeliveryHistoryTable } from "./delivery-history-table";
import { SendTestButton } from "./webhook-delivery-actions";

/**
 * Admin page section: the Slack messages and e-mails of the notification outbox (Notification rows), with
 * "Send test" to the Slack webhook and to the admin's own address, and "Resend" for a delivery that failed for
 * good, through the JSON API (docs/admin-api.md "Slack and e-mail deliveries").
 */
export async function NotificationDeliveriesSection({ actor }: { actor: Actor }) {
  const [deliveries, slack] = await Promise.all([listNotificationDeliveries(actor), getSlackWebhookSettings(actor)]);
  const t = await getTranslations("notificationDeliveries");
  const tw = await getTranslations("webhookDeliveries");
  const email = emailEnabled();
  return (
    <Section titleId="notification-deliveries-title" title={t("title")} className="panel stack">
      <p className="muted">{t("description")}</p>

      <h3 id="notification-tests-title">{tw("sendTests")}</h3>
      {slack.host || email ? (
        <div className="stack" aria-labelledby="notification-tests-title" role="group">
          {slack.host ? (
            <SendTestButton
              path="/api/admin/notification-deliveries/test"
              body={{ channel: "slack" }}
              label={t("testSlack")}
            />
          ) : null}
          {email ? (
            <SendTestButton
              path="/api/admin/notification-deliveries/test"
              body={{ channel: "email" }}
              label={t("testEmail")}
            />
          ) : null}
        </div>
      ) : (
        <p className="muted">{t("noTargets")}</p>
      )}

      <DeliveryHistoryTable
        label={t("title")}
        headings={{ target: t("target"), event: t("kind"), lastError: t("lastError"), done: t("sentAt") }}
        rows={deliveries.map((d) => {
          const kind = t(`kinds.${d.kind}`);
          return {
            id: d.id,
            createdAt: d.createdAt,
            target: d.channel === "slack" ? t("targetSlack") : t("targetEmail", { name: d.recipient?.name ?? "—" }),
            event: kind,
            status: t(`statuses.${d.status}`),
            failed: d.status === "failed",
            attempts: d.attempts,
            lastError: d.lastError ?? "—",
            nextAttemptAt: d.nextAttemptAt,
            doneAt: d.sentAt,
            resend:
              d.status === "failed"
                ? {
                    path: `/api/admin/notification-deliveries/${d.id}/resend`,
                    label: tw("resendNamed", { event: kind, ref: d.id.slice(0, 8) }),
                  }
                : null,
          };
        })}
      />
    </Section>
  );
}
