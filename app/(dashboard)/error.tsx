"use client";

import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";

// A page that failed to render, inside the app shell (navigation stays): only Next's digest (a reference
// to the server log) is shown, never the error message or a stack.
export default function DashboardError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const t = useTranslations("errors");
  return (
    <div
      role="alert"
      data-testid="page-error"
      className="mx-auto mt-10 max-w-lg rounded-xl border bg-card p-6 text-center shadow-xs"
    >
      <h1>{t("errorTitle")}</h1>
      <p className="text-muted-foreground">{t("error", { ref: error.digest ?? "-" })}</p>
      <Button type="button" variant="outline" onClick={reset}>
        {t("retry")}
      </Button>
    </div>
  );
}
