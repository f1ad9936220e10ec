import { getTranslations } from "next-intl/server";
import { pageActor } from "@/lib/server/auth/page";

export const dynamic = "force-dynamic";

export default async function QueuePage() {
  await pageActor("queue:read");
  const t = await getTranslations("queue");
  return (
    <section aria-labelledby="queue-title">
      <h1 id="queue-title">{t("title")}</h1>
      <p className="lead">{t("description")}</p>
      <div className="panel">{t("empty")}</div>
    </section>
  );
}
