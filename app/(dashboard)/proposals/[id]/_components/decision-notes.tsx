"use client";

import Link from "next/link";
import { useEffect, useRef } from "react";
import { useTranslations } from "next-intl";
import { Kbd } from "@/components/ui/kbd";
import type { Decision } from "./use-decision";

/** Under the actions: what the decision did, the way to the next proposal, or why it failed. */
export function DecisionStatus({ d }: { d: Decision }) {
  const t = useTranslations("proposal");
  const nextLink = useRef<HTMLAnchorElement>(null);
  const { decided, next } = d;
  // After a decision the next item is one keystroke away (Enter on the focused link, or n).
  useEffect(() => {
    if (decided && next.data) nextLink.current?.focus();
  }, [decided, next.data]);
  return (
    <>
      {d.notice ? (
        <div className="notice" role="status">
          {d.notice}{" "}
          {d.decided && d.next.data ? (
            <Link ref={nextLink} href={`/proposals/${d.next.data.id}`} className="font-medium">
              {t("reviewNext", { order: d.next.data.orderNumber })} <Kbd>n</Kbd>
            </Link>
          ) : d.decided && d.next.isSuccess ? (
            <Link href="/queue">{t("queueEmptyNext")}</Link>
          ) : null}
        </div>
      ) : null}
      {d.error && !d.open ? (
        <p className="error-box" role="alert" data-testid="decision-error">
          {d.error}
        </p>
      ) : null}
    </>
  );
}

/** Inside a decision dialog: another reviewer on it, the proposal expired while open, the last error. */
export function DialogNotes({ d }: { d: Decision }) {
  const t = useTranslations("proposal");
  const tc = useTranslations("proposal.claim");
  return (
    <>
      {d.otherReviewer ? (
        <p className="m-0 rounded-md border bg-card px-3 py-2 text-sm" data-testid="claim-lost">
          {tc("lostTo", { name: d.otherReviewer })}
        </p>
      ) : null}
      {d.expiredWhileOpen ? (
        <p className="error-box" role="alert">
          {t("expiredWhileOpen")}
        </p>
      ) : null}
      {d.error ? (
        <p className="error-box" role="alert" data-testid="decision-error">
          {d.error}
        </p>
      ) : null}
    </>
  );
}
