import { expect, test, type Page } from "@playwright/test";
import { staff } from "./support/auth";

// A callbackUrl is a redirect target chosen by whoever wrote the link. A browser drops TAB, LF and CR inside
// a URL and reads "\" as "/", so "/<TAB>/evil.example" is "//evil.example" to it: another site. After a
// real sign-in, every such target must leave the browser on our own origin (lib/domain/safe-callback.ts).
const HOSTILE = [
  "/\t/evil.example",
  "/\n/evil.example",
  "/\r/evil.example",
  "/\\evil.example",
  "//evil.example",
  "https://evil.example/queue",
  "javascript:alert(1)",
];

/** Records every request the page makes to a host other than ours (and answers it locally, no network). */
async function watchForeignRequests(page: Page, origin: string): Promise<string[]> {
  const foreign: string[] = [];
  await page.route(
    (url) => url.origin !== origin,
    async (route) => {
      foreign.push(route.request().url());
      await route.fulfill({ status: 200, contentType: "text/html", body: "<h1>evil</h1>" });
    },
  );
  return foreign;
}

test.describe("redirect after sign-in stays on this site", () => {
  for (const target of HOSTILE) {
    test(`callbackUrl ${JSON.stringify(target)}`, async ({ page, baseURL }) => {
      const origin = new URL(baseURL!).origin;
      const foreign = await watchForeignRequests(page, origin);
      const who = staff("shop-us", "reviewer");
      // As a browser sends it: the query string percent-encodes the control characters (%09, %0A, %0D).
      await page.goto(`/sign-in?callbackUrl=${encodeURIComponent(target)}`);
      await page.getByLabel(/^(Email|Correo electrónico)$/).fill(who.email);
      await page.getByLabel(/^(Password|Contraseña)$/).fill(who.password);
      await page.getByRole("button", { name: /^(Sign in|Entrar)$/ }).click();
      await expect(page).not.toHaveURL(/\/sign-in/);
      await expect(page.getByRole("navigation", { name: "Main navigation" })).toBeVisible();
      expect(new URL(page.url()).origin).toBe(origin);
      expect(foreign).toEqual([]);

      // Already signed in, the sign-in page redirects on the server: the same rule.
      await page.goto(`/sign-in?callbackUrl=${encodeURIComponent(target)}`);
      await expect(page.getByRole("navigation", { name: "Main navigation" })).toBeVisible();
      expect(new URL(page.url()).origin).toBe(origin);
      expect(foreign).toEqual([]);
    });
  }

  test("a same-origin callbackUrl with query and fragment is kept", async ({ page, baseURL }) => {
    const who = staff("shop-us", "reviewer");
    await page.goto(`/sign-in?callbackUrl=${encodeURIComponent("/decided?page=1#list")}`);
    await page.getByLabel(/^(Email|Correo electrónico)$/).fill(who.email);
    await page.getByLabel(/^(Password|Contraseña)$/).fill(who.password);
    await page.getByRole("button", { name: /^(Sign in|Entrar)$/ }).click();
    await expect(page).toHaveURL(`${new URL(baseURL!).origin}/decided?page=1#list`);
  });
});
