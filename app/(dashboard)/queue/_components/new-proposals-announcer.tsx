"use client";

import { useState } from "react";
import { useLocale, useTranslations } from "next-intl";
import { formatMinor } from "@/lib/domain/format-money";

type Row = { id: string; orderNumber: string; amountMinor: number; currency: string };

/**
 * Tells screen-reader users, politely, that proposals arrived — "New proposal: order 1042, €12.34" — and
 * only then: the list re-renders in place (pushed or polled) and this compares its ids with the last ones.
 */
export function NewProposalsAnnouncer({ rows }: { rows: Row[] }) {
  const t = useTranslations("queue");
  const locale = useLocale();
  const [shown, setShown] = useState(() => rows.map((r) => r.id));
  const [message, setMessage] = useState("");
  if (rows.map((r) => r.id).join() !== shown.join()) {
    const before = new Set(shown);
    setShown(rows.map((r) => r.id));
    const fresh = rows.filter((r) => !before.has(r.id));
    if (fresh.length === 1) setMessage(t("newOne", { order: fresh[0]!.orderNumber, amount: formatMinor(fresh[0]!.amountMinor, fresh[0]!.currency, locale) }));
    else if (fresh.length > 1) setMessage(t("newMany", { count: fresh.length }));
  }
  return (
    <p role="status" className="sr-only" data-testid="queue-announcer">
      {message}
    </p>
  );
}
