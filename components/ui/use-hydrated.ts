"use client";

import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/**
 * False while the server renders and while the page hydrates, true once React owns the page. Controls whose
 * click needs React (they open a dialog, sign in) stay disabled until then, so an early click is not lost
 * without a word: the button simply becomes clickable.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
