// First-load JavaScript of a page, as a cold browser downloads it: every script the page loads until the
// network is idle, with the HTTP cache disabled, each body gzip-compressed here at zlib's default level (as
// a server would send it). Used by bench/ui/run.ts, which prints each page beside its budget.
import { gzipSync } from "node:zlib";
import type { BrowserContext } from "@playwright/test";

export type FirstLoad = {
  jsGzip: number;
  jsRaw: number;
  scripts: number;
  ms: number;
  files: { url: string; gzip: number }[];
};

/** Loads `url` in a fresh page of `context` and waits for `ready` to be visible, then for the network to go idle. */
export async function firstLoadJs(context: BrowserContext, url: string, ready: string): Promise<FirstLoad> {
  const page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true }); // cold: nothing from the HTTP cache
    const bodies: Promise<Buffer | null>[] = [];
    const urls: string[] = [];
    page.on("response", (res) => {
      if (res.request().resourceType() !== "script") return;
      urls.push(res.url());
      bodies.push(res.body().catch(() => null));
    });
    const start = Date.now();
    await page.goto(url, { waitUntil: "commit" });
    await page.locator(ready).first().waitFor({ state: "visible", timeout: 30_000 });
    const ms = Date.now() - start;
    await page.waitForLoadState("networkidle");
    const all = await Promise.all(bodies);
    const files = all.flatMap((b, i) => (b ? [{ url: urls[i]!, gzip: gzipSync(b).length, raw: b.length }] : []));
    return {
      jsGzip: files.reduce((s, f) => s + f.gzip, 0),
      jsRaw: files.reduce((s, f) => s + f.raw, 0),
      scripts: files.length,
      ms,
      files: files.map(({ url: u, gzip }) => ({ url: u, gzip })),
    };
  } finally {
    await page.close();
  }
}

export const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

/**
 * The pages a person opens first, who opens them, what shows they are ready, and the budget of gzipped
 * first-load JavaScript each must stay within (the queue, opened most, has the tightest one).
 */
export const PAGE_BUDGETS = [
  { name: "sign-in", path: "/sign-in", role: null, ready: "form", budgetKiB: 200 },
  { name: "queue", path: "/queue", role: "reviewer", ready: "[data-queue-state]", budgetKiB: 150 },
  { name: "proposal", path: "/proposals/{pending}", role: "reviewer", ready: "h1", budgetKiB: 200 },
  { name: "decided", path: "/decided", role: "reviewer", ready: "h1", budgetKiB: 200 },
  { name: "executions", path: "/executions", role: "ops", ready: "h1", budgetKiB: 200 },
  { name: "audit", path: "/audit", role: "auditor", ready: "h1", budgetKiB: 200 },
  { name: "admin", path: "/admin", role: "admin", ready: "h1", budgetKiB: 200 },
] as const;
