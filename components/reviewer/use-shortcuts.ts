"use client";

import { useEffect, useRef } from "react";

/** True when a key press belongs to a text field, a menu or an open dialog, not to page shortcuts. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  return (
    ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName) ||
    !!target.closest("[role=dialog],[role=menu],[cmdk-root]")
  );
}

/**
 * Single-key shortcuts (j, k, a, r, ?) for the page. Ignored while typing, inside dialogs and with
 * Ctrl/Meta/Alt held, so they never steal a keystroke meant for something else.
 */
export function useShortcuts(map: Record<string, (event: KeyboardEvent) => void>, enabled = true) {
  const ref = useRef(map);
  useEffect(() => {
    ref.current = map;
  });
  useEffect(() => {
    if (!enabled) return;
    function onKey(event: KeyboardEvent) {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTypingTarget(event.target)) return;
      if (document.querySelector("[role=dialog][data-state=open], dialog[open]")) return;
      const handler = ref.current[event.key];
      if (!handler) return;
      event.preventDefault();
      handler(event);
    }
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [enabled]);
}
