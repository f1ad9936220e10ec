import Link from "next/link";
import { getTranslations } from "next-intl/server";

export default async function Forbidden() {
  const t = await getTranslations("errors");
  return (
    <main className="auth">
      <div className="card">
        <h1>{t("forbiddenTitle")}</h1>
        <p>{t("forbidden")}</p>
        <Link href="/">{t("home")}</Link>
      </div>
    </main>
  );
}
