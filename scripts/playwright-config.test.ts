// Playwright's own browsers are never downloaded here (no internet at install): every project must launch the
// same configured browser, or a project added later fails in CI with "Executable doesn't exist".
import { describe, expect, it } from "vitest";
import config from "../playwright.config";

describe("playwright.config", () => {
  const projects = config.projects ?? [];

  it("signs in once, runs the parallel and the serial specs, and the canary scan after everything", () => {
    expect(projects.map((p) => p.name)).toEqual(["setup", "chromium", "serial", "canary-scan"]);
    const deps = Object.fromEntries(projects.map((p) => [p.name, p.dependencies ?? []]));
    expect(deps).toEqual({ setup: [], chromium: ["setup"], serial: ["chromium"], "canary-scan": ["serial"] });
  });

  it("launches the same browser, with the same flags, in every project", () => {
    const [first, ...rest] = projects.map((p) => p.use?.launchOptions);
    expect(first?.args).toContain("--no-sandbox");
    for (const launch of rest) expect(launch).toEqual(first);
    if (!process.env.PLAYWRIGHT_USE_BUNDLED) {
      for (const p of projects) expect(p.use?.launchOptions?.executablePath, p.name).toBeTruthy();
    }
  });
});
