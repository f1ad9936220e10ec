import { getTranslations } from "next-intl/server";
import { pageActor } from "@/lib/server/auth/page";

export const dynamic = "force-dynamic";

export default async function AuditPage() {
  await pageActor("audit:read");
  const t = await getTranslations("audit");
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">{t("title")}</h1>
      <p className="lead">{t("description")}</p>
      <div className="panel">{t("empty")}</div>
    </section>
  );
}
