"use client";

import { useTranslations } from "next-intl";
import type { CustomerConfirmationView } from "@/lib/schemas/proposal-dto";
import { DateTime } from "@/components/ui/date-time";

// What reviewers see of the customer's own consent on the proposal page (docs/agent-api.md, "Customer confirmation"):
// nothing when only reviewers decide; otherwise whether and when the customer confirmed (or declined) on their
// one-time link, and the browser (family and OS only). A customer-only action says reviewers cannot approve it.
export function CustomerConfirmationBadge({ c }: { c: CustomerConfirmationView }) {
  const t = useTranslations("proposal");
  if (c.required === "reviewers") return null;
  const time = c.decidedAt ? <DateTime value={c.decidedAt} /> : null;
  return (
    <section aria-labelledby="customer-confirmation" className="panel" data-testid="customer-confirmation">
      <h2 id="customer-confirmation" className="mt-0 text-base">
        {t("customerConfirmation")}
      </h2>
      <p className="m-0" role="status" data-decision={c.decision ?? "awaited"}>
        {c.decision === "confirmed" ? (
          <>
            {t("customerConfirmed")} {time}
          </>
        ) : c.decision === "declined" ? (
          <>
            {t("customerDeclined")} {time}
          </>
        ) : (
          t("customerAwaited")
        )}
      </p>
      {c.browser ? <p className="muted m-0 text-sm">{t("customerBrowser", { browser: c.browser })}</p> : null}
      {c.required === "customer" ? <p className="muted m-0 text-sm">{t("customerOnly")}</p> : null}
    </section>
  );
}
