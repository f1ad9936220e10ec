import Link from "next/link";
import { getTranslations } from "next-intl/server";

export default async function NotFound() {
  const t = await getTranslations("errors");
  return (
    <main className="auth">
      <div className="card">
        <h1>{t("notFoundTitle")}</h1>
        <p>{t("notFound")}</p>
        <Link href="/">{t("home")}</Link>
      </div>
    </main>
  );
}
