// A demo staff member's page at a given size and colour scheme, signed in with the session auth.setup.ts opened
// (for the specs that look at the dashboard as its people use it: ui-screens, ui-dashboard).
import { expect, type Locator, type Page } from "@playwright/test";
import { staff, switchTo, type DemoRole } from "./auth";

export const sizes = [
  { name: "phone", width: 390, height: 844 },
  { name: "laptop", width: 1366, height: 900 },
] as const;
export const schemes = ["light", "dark"] as const;

/** The test's own page, signed in as the tenant's `role` (switchTo) at `size` in `scheme`. */
export async function as(
  page: Page,
  tenant: string,
  role: DemoRole,
  size: (typeof sizes)[number],
  scheme: (typeof schemes)[number],
): Promise<Page> {
  await page.setViewportSize({ width: size.width, height: size.height });
  await page.emulateMedia({ colorScheme: scheme });
  // The session auth.setup.ts opened (renewed when older than the step-up window allows): signing in through the
  // form is auth.spec's job, and twelve sign-ins were a third of ui-screens' time.
  await switchTo(page, staff(tenant, role));
  return page;
}

/**
 * Waits until React has hydrated `target` (its DOM node carries React's props). Next.js 16 can drop a click on a
 * <Link> that lands after the server HTML is visible but before hydration attached its handler: no navigation at all
 * (neither the client one nor the browser's own). Gate a click whose *client-side* behaviour the spec depends on.
 */
export async function hydrated(target: Locator): Promise<Locator> {
  await target.first().waitFor();
  await expect
    .poll(() => target.first().evaluate((el) => Object.keys(el).some((k) => k.startsWith("__reactProps$"))), {
      message: "React never hydrated the element",
    })
    .toBe(true);
  return target;
}

/**
 * Holds the page's JavaScript back (not its CSS, which inline scripts wait for, nor the streamed HTML) until
 * release(): the page exactly as the server rendered it, before hydration. Navigate with `waitUntil: "commit"`
 * (a held script keeps DOMContentLoaded back). done() removes the hold.
 */
export async function holdScripts(page: Page): Promise<{ release: () => void; done: () => Promise<void> }> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const script = (url: URL) => url.pathname.startsWith("/_next/static/chunks/") && url.pathname.endsWith(".js");
  await page.route(script, async (route) => {
    await held;
    await route.continue();
  });
  return { release, done: () => page.unroute(script) };
}
