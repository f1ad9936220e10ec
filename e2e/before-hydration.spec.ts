// Buttons that do nothing until React owns the page must not look clickable: a click on a server-rendered
// Approve before hydration opened nothing and was lost (a reviewer, and bulk-reject.spec in CI, met it). With
// scripts off, the page as the server sends it shows Approve, Reject and Sign in disabled; with scripts on they
// become usable. (components/ui/use-hydrated.ts)
import { expect, test } from "@playwright/test";
import { signIn, staff } from "./support/auth";
import { freshOrder } from "./support/db";
import { proposeRefund } from "./support/gateway";

test("before hydration Approve, Reject and Sign in are disabled; once hydrated they work", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000); // an agent run and a sign-in on a loaded machine
  const id = await proposeRefund("shop-us", await freshOrder("shop-us", 2_345));
  await signIn(page, staff("shop-us", "reviewer"));

  // The same session, scripts off: exactly what the server rendered, before any hydration.
  const serverOnly = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
  });
  try {
    const raw = await serverOnly.newPage();
    await raw.goto(`/proposals/${id}`);
    const bar = raw.getByRole("group", { name: "Decision" });
    await expect(bar.getByRole("button", { name: "Approve", exact: true })).toBeDisabled();
    await expect(bar.getByRole("button", { name: "Reject", exact: true })).toBeDisabled();
    // Lower the amount opens a dialog only React can open (CI: approvals.spec's edit test clicked too early).
    await expect(raw.getByRole("button", { name: "Lower the amount" })).toBeDisabled();
  } finally {
    await serverOnly.close();
  }
  // Signed out, scripts off: the sign-in form (which signs in through next-auth's client) cannot be sent yet.
  const signedOut = await browser.newContext({ javaScriptEnabled: false });
  try {
    const raw = await signedOut.newPage();
    await raw.goto("/sign-in");
    await expect(raw.getByRole("button", { name: /^(Sign in|Entrar)$/ })).toBeDisabled();
  } finally {
    await signedOut.close();
  }

  // Scripts on: the same buttons are enabled and do what they say.
  await page.goto(`/proposals/${id}`);
  const bar = page.getByRole("group", { name: "Decision" });
  await expect(bar.getByRole("button", { name: "Reject", exact: true })).toBeEnabled();
  await bar.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(page.getByRole("dialog").getByRole("button", { name: "Approve refund" })).toBeVisible();
});
