// Signs every demo staff member the browser specs act as in once, with the request the sign-in form sends
// (signInByRequest: no form or landing page rendered; the form is auth.spec's to test), and keeps each one's
// browser state in .data/e2e-auth/<email>.json for useSession() (e2e/support/auth.ts). Runs before the specs.
import { mkdirSync } from "node:fs";
import { test } from "@playwright/test";
import { demoTenants } from "../scripts/lib/demo-data";
import { authFile, signInByRequest } from "./support/auth";

test.describe.configure({ mode: "parallel" });
mkdirSync(".data/e2e-auth", { recursive: true });

for (const member of demoTenants.flatMap((t) => t.staff))
  test(`sign in ${member.email}`, async ({ context }) => {
    await signInByRequest(context, member);
    await context.storageState({ path: authFile(member.email) });
  });
