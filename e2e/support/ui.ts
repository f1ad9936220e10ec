// A demo staff member's page at a given size and colour scheme, signed in with the session auth.setup.ts opened
// (for the specs that look at the dashboard as its people use it: ui-screens, ui-dashboard).
import type { Browser, Page } from "@playwright/test";
import { staff, useSession, type DemoRole } from "./auth";
import { baseURL } from "./gateway";

export const sizes = [
  { name: "phone", width: 390, height: 844 },
  { name: "laptop", width: 1366, height: 900 },
] as const;
export const schemes = ["light", "dark"] as const;

export async function as(
  browser: Browser,
  tenant: string,
  role: DemoRole,
  size: (typeof sizes)[number],
  scheme: (typeof schemes)[number],
): Promise<Page> {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: size.width, height: size.height },
    colorScheme: scheme,
  });
  const page = await context.newPage();
  // The session auth.setup.ts opened (renewed when older than the step-up window allows): signing in through the
  // form is auth.spec's job, and twelve sign-ins were a third of this file's time.
  await useSession(page, staff(tenant, role));
  return page;
}
