import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { isAppError } from "@/lib/domain/outcome";
import { getActor } from "@/lib/server/auth/actor";
import { getNotificationPreferences } from "@/lib/server/notifications/notification-preferences";
import { Section } from "@/components/page/section";
import { NotificationPreferencesForm } from "./_components/notification-preferences-form";
import { titleMetadata } from "@/components/page/title-metadata";

export const dynamic = "force-dynamic";

export const generateMetadata = titleMetadata("notifications.prefs");

// Each reviewer / ops member chooses their own notification e-mails (the use case only ever reads and
// writes the signed-in person's row).
export default async function NotificationPreferencesPage() {
  const actor = await getActor();
  if (!actor) redirect("/sign-in");
  const prefs = await getNotificationPreferences(actor).catch((error: unknown) => {
    if (isAppError(error) && error.code === "permission_denied") redirect("/forbidden");
    throw error;
  });
  const t = await getTranslations("notifications.prefs");
  return (
    <Section
      titleId="notification-prefs-title"
      title={t("title")}
      level={1}
      lead={t("description", { email: actor.email })}
    >
      {prefs.emailEnabled ? null : (
        <p className="muted" role="note" data-testid="email-off">
          {t("emailOff")}
        </p>
      )}
      <NotificationPreferencesForm initial={prefs} />
      <p className="muted">{t("slackNote")}</p>
    </Section>
  );
}
