// Admin one way (issue #36 item 11): every Administration section calls the JSON routes under /api/admin/… (the
// same API automation uses, each in the OpenAPI document); none posts to a server action. A server action
// added to the Admin page fails here.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const adminDir = join(process.cwd(), "app", "(dashboard)", "admin");

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourcesUnder(path);
    return /\.(ts|tsx)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [path] : [];
  });
}

describe("Admin calls JSON routes only", () => {
  it("no file of the Admin page declares a server action", () => {
    const files = sourcesUnder(adminDir);
    expect(files.length).toBeGreaterThan(10);
    const withActions = files.filter((f) => /^\s*["']use server["']/m.test(readFileSync(f, "utf8")));
    expect(withActions).toEqual([]);
  });

  it("the webhook forms call their routes", () => {
    const form = (name: string) => readFileSync(join(adminDir, "_components", name), "utf8");
    expect(form("review-webhook-form.tsx")).toContain('path="/api/admin/review-webhook"');
    expect(form("slack-webhook-form.tsx")).toContain('path="/api/admin/slack-webhook"');
  });
});
