"use client";

import { useState } from "react";
import { useTranslations } from "next-intl";

/** `amount` comes formatted from the server (the queue page): no money formatting code in the browser. */
type Row = { id: string; orderNumber: string; amount: string };

/**
 * Tells screen-reader users, politely, that proposals arrived — "New proposal: order 1042, €12.34" — and
 * only then: the list re-renders in place (pushed or polled) and this compares its ids with the last ones.
 */
export function NewProposalsAnnouncer({ rows }: { rows: Row[] }) {
  const t = useTranslations("queue");
  const [shown, setShown] = useState(() => rows.map((r) => r.id));
  const [message, setMessage] = useState("");
  if (rows.map((r) => r.id).join() !== shown.join()) {
    const before = new Set(shown);
    setShown(rows.map((r) => r.id));
    const fresh = rows.filter((r) => !before.has(r.id));
    if (fresh.length === 1) setMessage(t("newOne", { order: fresh[0]!.orderNumber, amount: fresh[0]!.amount }));
    else if (fresh.length > 1) setMessage(t("newMany", { count: fresh.length }));
  }
  return (
    <p role="status" className="sr-only" data-testid="queue-announcer">
      {message}
    </p>
  );
}
