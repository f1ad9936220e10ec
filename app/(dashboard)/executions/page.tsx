import { getTranslations } from "next-intl/server";
import { pageActor } from "@/lib/server/auth/page";

export const dynamic = "force-dynamic";

export default async function ExecutionsPage() {
  await pageActor("executions:read");
  const t = await getTranslations("executions");
  return (
    <section aria-labelledby="executions-title">
      <h1 id="executions-title">{t("title")}</h1>
      <p className="lead">{t("description")}</p>
      <div className="panel">{t("empty")}</div>
    </section>
  );
}
