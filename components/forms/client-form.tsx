"use client";

import type { ComponentPropsWithRef } from "react";
import { useHydrated } from "@/components/ui/use-hydrated";

/**
 * A form that React sends (its onSubmit prevents the browser's own submission). Before React owns the page there is
 * no onSubmit yet, and a click on its submit button made the browser send the form itself: a GET to the same page
 * with every field in the URL (the payment provider's API key on the admin page, a note), and nothing the person asked for happened (an
 * approval clicked in a freshly opened tab was lost that way in CI). So until hydration its controls are disabled, as
 * useHydrated's buttons are: a disabled fieldset around them, `display: contents` so that it changes no layout, and
 * an early click simply waits for the button to become usable. Every form with an onSubmit is a ClientForm
 * (client-form.test.ts holds that).
 */
export function ClientForm({ children, ...props }: ComponentPropsWithRef<"form">) {
  const hydrated = useHydrated();
  return (
    <form {...props}>
      <fieldset disabled={!hydrated} className="contents">
        {children}
      </fieldset>
    </form>
  );
}
