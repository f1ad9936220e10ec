// One class helper (lib/utils.ts `cn`, clsx only): a caller's className beats a component's default because the
// defaults sit in the `components` CSS layer and the caller's utilities in `utilities` (components/ui/*.css
// imported by app/globals.css; docs/architecture.md "Class helper: one `cn`, defaults in a layer"). Read in a real
// browser from the built stylesheet: the computed style of real components, with and without a conflicting caller
// utility. Each conflict is chosen so that, were the defaults utilities again, Tailwind's own order would let the
// default win (h-9 is emitted after h-14, bg-primary after bg-card, bg-secondary after bg-primary/12): this spec
// goes red then (checked by building with the defaults' block in `@layer utilities`).
import { expect, test, type Locator, type Page } from "@playwright/test";
import { useSession, staff } from "./support/auth";
import { baseURL } from "./support/gateway";

/** The colour the browser computes for a CSS background value in this page (theme variables resolved). */
async function colour(page: Page, background: string): Promise<string> {
  return page.evaluate((bg) => {
    const probe = document.createElement("div");
    probe.style.background = bg;
    document.body.append(probe);
    const value = getComputedStyle(probe).backgroundColor;
    probe.remove();
    return value;
  }, background);
}

const style = (el: Locator, property: "height" | "backgroundColor" | "fontSize") =>
  el.evaluate((node, p) => getComputedStyle(node)[p], property);

/**
 * Adds utilities to an element's class list as a caller's className would: cn only joins class names, so
 * `<Button className="h-14">` renders exactly this class attribute. The utilities must exist in the built
 * stylesheet (Tailwind emits only those the sources use), which the spec checks first.
 */
async function addClasses(el: Locator, ...classes: string[]) {
  const missing = await el.page().evaluate((names) => {
    const selectors = new Set<string>();
    const walk = (rules: CSSRuleList) => {
      for (const rule of Array.from(rules)) {
        if (rule instanceof CSSStyleRule) selectors.add(rule.selectorText);
        if ("cssRules" in rule) walk((rule as CSSGroupingRule).cssRules);
      }
    };
    for (const sheet of Array.from(document.styleSheets)) walk(sheet.cssRules);
    return names.filter((n) => !selectors.has(`.${CSS.escape(n)}`));
  }, classes);
  expect(missing, "utilities the test adds must be in the built stylesheet").toEqual([]);
  await el.evaluate((node, names) => node.classList.add(...names), classes);
}

test("a caller's className wins over a Button's and an Input's defaults; without it the defaults apply", async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL, colorScheme: "light", viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  await useSession(page, staff("shop-us", "admin"));
  await page.goto("/executions");

  const button = page.locator('form [data-slot="button"][data-variant="default"][data-size="default"]').first();
  await expect(button).toBeVisible();
  expect(await style(button, "height")).toBe("36px"); // size default: h-9
  expect(await style(button, "backgroundColor")).toBe(await colour(page, "var(--primary)"));
  // A state default still applies: hover darkens the primary background (hover:bg-primary/90).
  await button.hover();
  await expect
    .poll(() => style(button, "backgroundColor"))
    .toBe(await colour(page, "color-mix(in oklab, var(--primary) 90%, transparent)"));
  await page.mouse.move(0, 0);

  // Polled: the Button's transition-all animates the change.
  await addClasses(button, "h-14", "bg-card");
  await expect.poll(() => style(button, "height")).toBe("56px");
  await expect.poll(async () => style(button, "backgroundColor")).toBe(await colour(page, "var(--card)"));

  const input = page.locator('[data-slot="input"]').first();
  await expect(input).toBeVisible();
  expect(await style(input, "height")).toBe("36px");
  expect(await style(input, "backgroundColor")).toBe("rgba(0, 0, 0, 0)"); // bg-transparent
  await addClasses(input, "h-14", "bg-card");
  await expect.poll(() => style(input, "height")).toBe("56px");
  await expect.poll(() => style(input, "backgroundColor")).toBe(await colour(page, "var(--card)"));
  await context.close();
});

test("a status badge's tone (its className) wins over the secondary Badge's background; dark defaults apply", async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL, colorScheme: "dark", viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  await useSession(page, staff("shop-us", "reviewer"));
  await page.goto("/queue");
  const href = await page.locator('a[href^="/proposals/"]').first().getAttribute("href");
  await page.goto(href!);

  // components/domain/status-badge.tsx: <Badge variant="secondary" className="align-middle bg-primary/12 text-primary">
  const badge = page.locator('[data-slot="badge"][data-status="pending_approval"]').first();
  await expect(badge).toBeVisible();
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  expect(await style(badge, "backgroundColor")).toBe(
    await colour(page, "color-mix(in oklab, var(--primary) 12%, transparent)"),
  );
  expect(await style(badge, "fontSize")).toBe("12px"); // the badge's own text-xs
  // Without the caller's tone: the secondary variant's default background.
  await badge.evaluate((node) => node.classList.remove("bg-primary/12", "text-primary"));
  await expect.poll(() => style(badge, "backgroundColor")).toBe(await colour(page, "var(--secondary)"));

  // A dark: default applies in the dark theme (NativeSelect: dark:bg-input/30).
  await page.goto("/queue");
  const select = page.locator('[data-slot="native-select"]').first();
  await expect(select).toBeVisible();
  expect(await style(select, "backgroundColor")).toBe(
    await colour(page, "color-mix(in oklab, var(--input) 30%, transparent)"),
  );
  await context.close();
});
