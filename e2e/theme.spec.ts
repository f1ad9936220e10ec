// The theme picker (components/theme): the choice applies at once, survives a reload without a flash of the
// other theme (the inline script sets the class before the page's JavaScript runs), and "Follow the system"
// hands it back to the browser's colour scheme.
import { expect, test } from "@playwright/test";
import { useSession, staff } from "./support/auth";
import { baseURL } from "./support/gateway";
import { holdScripts } from "./support/ui";

test("light / dark / follow the system: applied at once, kept across a reload before hydration", async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL, colorScheme: "dark", viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  await useSession(page, staff("shop-us", "reviewer"));
  await page.goto("/queue");
  const html = page.locator("html");
  const picker = page.getByRole("radiogroup", { name: /^(Theme|Tema)$/ }).first();
  await expect(html).toHaveClass(/\bdark\b/); // nothing chosen yet: the system's dark
  await expect(picker.getByRole("radio", { name: /^(Follow the system|Según el sistema)$/ })).toHaveAttribute(
    "aria-checked",
    "true",
  );

  await picker.getByRole("radio", { name: /^(Light|Claro)$/ }).click();
  await expect(html).not.toHaveClass(/\bdark\b/);
  await expect(html).toHaveClass(/\blight\b/);
  await expect(picker.getByRole("radio", { name: /^(Light|Claro)$/ })).toHaveAttribute("aria-checked", "true");
  expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("light");

  // After a reload the class is right before any of the page's scripts ran: with JavaScript files blocked,
  // only the inline script can have set it.
  await page.route("**/_next/static/chunks/**", (route) => route.abort());
  await page.reload({ waitUntil: "domcontentloaded" });
  await expect(html).toHaveClass(/\blight\b/);
  await expect(html).not.toHaveClass(/\bdark\b/);
  await page.unroute("**/_next/static/chunks/**");
  await page.reload();

  await picker.getByRole("radio", { name: /^(Dark|Oscuro)$/ }).click();
  await expect(html).toHaveClass(/\bdark\b/);
  await page.emulateMedia({ colorScheme: "light" }); // a chosen theme ignores the system
  await expect(html).toHaveClass(/\bdark\b/);

  await picker.getByRole("radio", { name: /^(Follow the system|Según el sistema)$/ }).click();
  await expect(html).not.toHaveClass(/\bdark\b/); // the system is light now
  await page.emulateMedia({ colorScheme: "dark" }); // and it follows the system's changes
  await expect(html).toHaveClass(/\bdark\b/);
  expect(await page.evaluate(() => localStorage.getItem("theme"))).toBeNull();
  await context.close();
});

test("a system change between the first paint and hydration is still followed", async ({ browser }) => {
  const context = await browser.newContext({ baseURL, colorScheme: "dark", viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  await useSession(page, staff("shop-us", "reviewer"));
  // The page's JavaScript is held back (not its CSS, which the inline script waits for): only the inline script
  // runs, and it paints the system's dark.
  const scripts = await holdScripts(page);
  await page.goto("/queue", { waitUntil: "commit" });
  const html = page.locator("html");
  await expect(html).toHaveClass(/\bdark\b/);
  // The system turns light while nothing listens yet; then the scripts load and the page hydrates.
  await page.emulateMedia({ colorScheme: "light" });
  scripts.release();
  const picker = page.getByRole("radiogroup", { name: /^(Theme|Tema)$/ }).first();
  await expect(picker.getByRole("radio", { name: /^(Follow the system|Según el sistema)$/ })).toHaveAttribute(
    "aria-checked",
    "true",
  );
  await expect(html).toHaveClass(/\blight\b/);
  await expect(html).not.toHaveClass(/\bdark\b/);
  await context.close();
});
