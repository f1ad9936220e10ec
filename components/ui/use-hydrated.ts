"use client";

import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/**
 * False while the server renders and while the page hydrates, true once React owns the page. Controls whose
 * click needs React (they open a dialog, sign in) stay disabled until then, so an early click is not lost
 * without a word: the button simply becomes clickable (ClientButton, ClientForm).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

/**
 * Whether a text field (Input, Textarea) is disabled: its own `disabled`, or, for a controlled field (`value`
 * given), until React owns the page. Text typed into the server's HTML before hydration was replaced by the field's state without a word,
 * and a search or form then went out without it (audit.spec and executions-detail.spec met it in CI); disabled,
 * the field simply takes input a moment later (Playwright's fill waits for it too). An uncontrolled field keeps
 * what was typed, and a read-only one takes none, so neither is held back. Selects are not held back here: the
 * queue's toolbar applies a choice made before hydration (ui-dashboard.spec); a form whose selects need it
 * disables them itself (the audit search).
 */
export function useControlledUntilHydrated(props: {
  value?: unknown;
  disabled?: boolean;
  readOnly?: boolean;
}): boolean | undefined {
  const hydrated = useHydrated();
  return props.disabled || (props.value !== undefined && !props.readOnly && !hydrated) || undefined;
}
