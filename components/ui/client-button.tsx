"use client";

import * as React from "react";
import { useHydrated } from "./use-hydrated";

/**
 * A `<button>` whose click needs React (an `onClick`, or a trigger a Radix component wires up): disabled until React
 * owns the page. Before hydration the server's button looked clickable and a click on it did nothing, without a
 * word (a reviewer, and specs in CI, met it); disabled, it simply becomes clickable a moment later (Playwright's
 * click waits for it too). `Button` (button.tsx) renders one whenever it gets an `onClick`;
 * client-button.test.ts fails on a raw `<button onClick>` in app/ or components/.
 */
export function ClientButton({ disabled, ...props }: React.ComponentProps<"button">) {
  const hydrated = useHydrated();
  return <button {...props} disabled={disabled || !hydrated} />;
}
