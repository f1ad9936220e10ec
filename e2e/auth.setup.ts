// Signs every demo staff member the browser specs act as in once, through the sign-in form, and keeps each
// one's browser state in .data/e2e-auth/<email>.json for useSession() (e2e/support/auth.ts). Runs before the specs.
import { mkdirSync } from "node:fs";
import { test } from "@playwright/test";
import { demoTenants } from "../scripts/lib/demo-data";
import { authFile, signIn } from "./support/auth";

test.describe.configure({ mode: "parallel" });
mkdirSync(".data/e2e-auth", { recursive: true });

for (const member of demoTenants.flatMap((t) => t.staff))
  test(`sign in ${member.email}`, async ({ page }) => {
    await signIn(page, member, { timeout: 30_000 });
    await page.context().storageState({ path: authFile(member.email) });
  });
