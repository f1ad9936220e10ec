"use client";

import { useCallback, useSyncExternalStore } from "react";
import { useTranslations } from "next-intl";
import { inboxCountOr, watchInboxCount } from "@/lib/queries/inbox-count";

/**
 * The inbox link's count of what waits for this person, kept live (lib/queries/inbox-count.ts). Nothing is
 * shown at 0; `data-count` always says the number (tests and tools read it).
 */
export function InboxBadge({ initial }: { initial: number }) {
  const t = useTranslations("inbox");
  const read = useCallback(() => inboxCountOr(initial)(), [initial]);
  const count = useSyncExternalStore(watchInboxCount, read, () => initial);
  // At 0 the element stays (it carries the number) but holds no text: the link reads just "Inbox".
  if (count === 0) return <span data-testid="inbox-count" data-count={0} hidden />;
  return (
    <span data-testid="inbox-count" data-count={count} className="ml-2 inline-flex items-center">
      <span
        aria-hidden="true"
        className="rounded-full bg-primary px-1.5 text-xs leading-5 font-semibold text-primary-foreground tabular-nums"
      >
        {count > 99 ? "99+" : count}
      </span>
      <span className="sr-only">{t("badge", { count })}</span>
    </span>
  );
}
