import type { Metadata } from "next";
import { languageOf } from "@/lib/i18n/locales";
import { ConfirmAction, ConfirmNotice } from "@/components/confirm/confirm-action";
import { confirmTexts, confirmTranslator } from "@/lib/server/confirmations/confirm-messages";
import { readConfirmPage } from "@/lib/server/confirmations/read-confirm-page";

export const dynamic = "force-dynamic";

// The customer's confirm page (docs/agent-api.md, "Customer confirmation"): no staff session — the one-time token in
// the path is the credential; phone first; in the tenant's language; only the hashed action, nothing of the account.

// `same-origin`, not `no-referrer`: the token in the URL never leaves for another site, and the form's POST still
// carries its Origin (under `no-referrer` a browser sends `Origin: null`, which the same-origin check refuses).
export const metadata: Metadata = { robots: { index: false, follow: false }, referrer: "same-origin" };

export default async function ConfirmPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const page = await readConfirmPage(token);
  if (!page.ok) {
    const t = confirmTranslator(page.locale);
    return (
      <main lang={page.locale} className="mx-auto flex max-w-md flex-col gap-4 p-4">
        <ConfirmNotice
          title={t("confirm.refused.title")}
          message={t(`confirm.refused.${page.code}`)}
          code={t("confirm.code", { code: page.code })}
        />
      </main>
    );
  }
  const { view } = page;
  return (
    <main lang={view.locale} className="mx-auto flex max-w-md flex-col gap-4 p-4">
      <ConfirmAction
        texts={confirmTexts(view)}
        token={token}
        proposalId={view.proposalId}
        hash={view.hash}
        lang={languageOf(view.locale)}
      />
    </main>
  );
}
