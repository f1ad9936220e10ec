"use client";

import { useTranslations } from "next-intl";

/** A provider's failure reason in plain words (en/es) when known; the code itself on hover and as a fallback. */
export function FailureReason({ reason, className }: { reason: string; className?: string }) {
  const t = useTranslations("executions.failureReasons");
  return (
    <span className={className} title={reason} data-failure-reason={reason}>
      {t.has(reason) ? t(reason) : reason}
    </span>
  );
}
