// Sign-out voids every session of the person (their sessionVersion), not only this browser's cookie. In the
// serial project: the other specs act as the same demo staff member with the session auth.setup.ts opened
// (useSession), so this spec runs alone and leaves a fresh signed-in session in that member's state file.
import { expect, test } from "@playwright/test";
import { authFile, signIn, staff } from "./support/auth";

test("sign-out ends the session, and the old session cookie no longer works", async ({ page, context, browser }) => {
  const ops = staff("shop-us", "ops");
  await signIn(page, ops);
  const before = await context.cookies();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await page.goto("/queue");
  await expect(page).toHaveURL(/\/sign-in/);
  // Replaying the cookie captured before sign-out: the session was voided on the server.
  const replay = await browser.newContext();
  await replay.addCookies(before);
  const p2 = await replay.newPage();
  await p2.goto("/queue");
  await expect(p2).toHaveURL(/\/sign-in/);
  await replay.close();

  // The setup's session of this member was voided too: sign in again for the specs that run after this one.
  await signIn(page, ops);
  await context.storageState({ path: authFile(ops.email) });
});
