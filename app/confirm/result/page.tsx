import type { Metadata } from "next";
import { headers } from "next/headers";
import { ConfirmNotice } from "@/components/confirm/confirm-action";
import { languages, negotiateLocale } from "@/lib/i18n/locales";
import { confirmOutcomes, confirmRefusals } from "@/lib/schemas/customer-confirmation";
import { confirmTranslator } from "@/lib/server/confirmations/confirm-messages";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { robots: { index: false, follow: false } };

// Where the confirm form lands (POST /api/confirm/<token> → 303): what was recorded, or why the link was refused.
// It holds no token and reads nothing; its language is the confirm page's (the tenant's, `lang`), else the browser's.

export default async function ConfirmResultPage({
  searchParams,
}: {
  searchParams: Promise<{ outcome?: string; refused?: string; lang?: string }>;
}) {
  const { outcome, refused, lang } = await searchParams;
  const locale = languages.find((l) => l === lang) ?? negotiateLocale((await headers()).get("accept-language"));
  const t = confirmTranslator(locale);
  const done = confirmOutcomes.find((o) => o === outcome);
  const code = confirmRefusals.find((c) => c === refused) ?? "invalid_request";
  return (
    <main lang={locale} className="mx-auto flex max-w-md flex-col gap-4 p-4">
      {done ? (
        <ConfirmNotice title={t("confirm.title")} message={t(`confirm.done.${done}`)} />
      ) : (
        <ConfirmNotice
          title={t("confirm.refused.title")}
          message={t(`confirm.refused.${code}`)}
          code={t("confirm.code", { code })}
        />
      )}
    </main>
  );
}
