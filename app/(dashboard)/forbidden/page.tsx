import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { ShieldX } from "lucide-react";
import { titleMetadata } from "@/components/page/title-metadata";

export const generateMetadata = titleMetadata("errors", "forbiddenTitle");

// Inside the app shell: the person keeps their navigation and sees where they can go instead.
export default async function Forbidden() {
  const t = await getTranslations("errors");
  return (
    <div className="mx-auto mt-10 max-w-lg rounded-xl border bg-card p-6 text-center shadow-xs">
      <ShieldX className="mx-auto mb-3 size-10 text-destructive-foreground" aria-hidden />
      <h1>{t("forbiddenTitle")}</h1>
      <p className="text-muted-foreground">{t("forbidden")}</p>
      <Link href="/">{t("home")}</Link>
    </div>
  );
}
