// The browser context is reused between tests (`reuseContext` in playwright.config.ts: a new context per test cost
// ~1.3 s of a cold renderer each, docs/testing.md). Playwright resets it between tests; this spec holds the reset to
// what the other specs rely on: a test starts signed out, on a blank page, with none of the last test's stored
// state (the theme lives in localStorage), its routes or its emulated media, and in the same context (else the
// setting is off and the step pays for a cold context per test again).
import { expect, test, type Page } from "@playwright/test";
import { staff, useSession } from "./support/auth";

test.describe.configure({ mode: "serial" });

let first: string | undefined;
// Playwright's id of the context (the client may wrap one browser context in a new object each test).
const contextId = (page: Page) => (page.context() as unknown as { _guid: string })._guid;

test("a test leaves a session, stored state, a route and emulated media behind", async ({ page }) => {
  first = contextId(page);
  await useSession(page, staff("shop-us", "reviewer"));
  await page.route("**/api/health", (route) => route.fulfill({ status: 418, body: "left by the first test" }));
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/queue");
  await expect(page).toHaveURL(/\/queue$/);
  await page.evaluate(() => {
    localStorage.setItem("theme", "dark");
    sessionStorage.setItem("left", "behind");
  });
  expect((await page.context().cookies()).length).toBeGreaterThan(0);
  expect((await page.request.get("/api/health")).status()).toBe(200); // page.request is not routed
});

test("the next test in the worker gets the same context, reset", async ({ page }) => {
  expect(first, "the first test did not run in this worker").toBeDefined();
  expect(contextId(page), "reuseContext is off: every test pays for a cold browser context").toBe(first);
  expect(page.url()).toBe("about:blank");
  expect(await page.context().cookies()).toEqual([]);
  expect(await page.evaluate(() => matchMedia("(prefers-color-scheme: dark)").matches)).toBe(false);

  await page.goto("/queue");
  await expect(page).toHaveURL(/\/sign-in/); // signed out
  expect(await page.evaluate(() => [localStorage.length, sessionStorage.length])).toEqual([0, 0]);
  expect(await page.evaluate(async () => (await fetch("/api/health")).status)).toBe(200); // no route left
});
