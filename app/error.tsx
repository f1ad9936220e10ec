"use client";

import { useTranslations } from "next-intl";
import { ClientButton } from "@/components/ui/client-button";

// Shows only Next's digest (a reference to the server log), never the error message or stack.
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const t = useTranslations("errors");
  return (
    <main className="auth">
      <div className="card" role="alert">
        <h1>{t("errorTitle")}</h1>
        <p>{t("error", { ref: error.digest ?? "-" })}</p>
        <ClientButton type="button" onClick={reset}>
          {t("retry")}
        </ClientButton>
      </div>
    </main>
  );
}
