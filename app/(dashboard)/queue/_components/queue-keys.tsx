"use client";

// j / k move focus between the server-rendered queue items (rows on wide screens, cards on phones; both
// carry data-queue-link). Enter then follows the focused link. Nothing else: a keyboard island of a few lines.
import { useShortcuts } from "@/components/reviewer/use-shortcuts";

function focusItem(step: 1 | -1) {
  const links = [...document.querySelectorAll<HTMLAnchorElement>("[data-queue-link]")].filter(
    (el) => el.offsetParent !== null,
  );
  if (links.length === 0) return;
  const at = links.findIndex((el) => el === document.activeElement);
  const next = links[at < 0 ? (step === 1 ? 0 : links.length - 1) : Math.min(links.length - 1, Math.max(0, at + step))];
  next?.focus();
  next?.scrollIntoView({ block: "nearest" });
}

export function QueueKeys() {
  useShortcuts({ j: () => focusItem(1), k: () => focusItem(-1) });
  return null;
}
