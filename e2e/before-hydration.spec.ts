// Buttons that do nothing until React owns the page must not look clickable: a click on a server-rendered
// Approve before hydration opened nothing and was lost (a reviewer, and bulk-reject.spec in CI, met it). With
// scripts off, the page as the server sends it shows Approve, Reject, Sign in and the controls of a form React sends
// disabled, and buttons outside forms whose click React carries out (an admin's Revoke that asks first included);
// with scripts on they become usable.
// (components/ui/use-hydrated.ts, components/forms/client-form.tsx, components/ui/client-button.tsx)
import { expect, test } from "@playwright/test";
import { authFile, signIn, staff } from "./support/auth";
import { freshOrder } from "./support/db";
import { proposeRefund } from "./support/gateway";
import { holdScripts } from "./support/ui";

test("before hydration Approve, Reject, Sign in, a form React sends and the audit search are disabled; once hydrated they work", async ({
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
    // Buttons outside any form whose click React carries out (ClientButton, and Button with an onClick): the full
    // hash's toggle and its copy button did nothing when clicked before hydration.
    await expect(raw.getByRole("button", { name: "Show full hash" })).toBeDisabled();
    await expect(raw.getByRole("button", { name: /^Copy / }).first()).toBeDisabled();
    // A form React sends (ClientForm): sent before hydration, the browser itself made it a GET of the page with its
    // fields in the URL and saved nothing (CI met it with admin-polish's second admin). Its controls wait for React.
    await raw.goto("/account/notifications");
    await expect(raw.getByRole("button", { name: "Save preferences" })).toBeDisabled();
    await expect(raw.getByRole("checkbox").first()).toBeDisabled();
  } finally {
    await serverOnly.close();
  }
  // A button that asks first (ConfirmButton: a Radix dialog trigger, whose click React adds): an admin's Revoke in
  // the server's HTML opened nothing before hydration.
  const adminServerOnly = await browser.newContext({
    javaScriptEnabled: false,
    storageState: authFile(staff("shop-us", "admin").email),
  });
  try {
    const raw = await adminServerOnly.newPage();
    await raw.goto("/admin");
    await expect(raw.getByRole("button", { name: /^Revoke key / }).first()).toBeDisabled();
  } finally {
    await adminServerOnly.close();
  }
  // The auditor's search before hydration: the page's own scripts held back (its streamed HTML still swaps in),
  // so the form is exactly what the server rendered. Text typed into it was wiped by hydration (the fields are
  // React's), so the fields and Search wait for React too; released, they work.
  const auditor = await browser.newContext({ storageState: authFile(staff("shop-us", "auditor").email) });
  try {
    const raw = await auditor.newPage();
    const scripts = await holdScripts(raw);
    await raw.goto("/audit", { waitUntil: "commit" });
    const form = raw.getByRole("search", { name: "Search", exact: true });
    await expect(form.getByLabel("Trace ID")).toBeDisabled();
    await expect(form.getByRole("combobox", { name: "Outcome" })).toBeDisabled();
    await expect(form.getByRole("button", { name: "Search" })).toBeDisabled();
    await expect(form.getByRole("button", { name: "Last hour" })).toBeDisabled();
    scripts.release();
    await form.getByLabel("Trace ID").fill("some-trace");
    await expect(form.getByRole("button", { name: "Search" })).toBeEnabled();
    await expect(form.getByLabel("Trace ID")).toHaveValue("some-trace");
    await expect(form.getByRole("button", { name: "Last hour" })).toBeEnabled();
  } finally {
    await auditor.close();
  }
  // Signed out, scripts off: the sign-in form (which signs in through next-auth's client) cannot be sent yet.
  const signedOut = await browser.newContext({ javaScriptEnabled: false });
  try {
    const raw = await signedOut.newPage();
    await raw.goto("/sign-in");
    await expect(raw.getByRole("button", { name: /^(Sign in|Entrar)$/ })).toBeDisabled();
    // The single sign-on button too: next-auth's client starts it, and a click before hydration was lost
    // (admin-oidc.spec met it in CI: the provider's login page never came).
    await expect(raw.getByRole("button", { name: /Test SSO/ })).toBeDisabled();
  } finally {
    await signedOut.close();
  }

  // Scripts on: the same buttons are enabled and do what they say.
  await page.goto(`/proposals/${id}`);
  const bar = page.getByRole("group", { name: "Decision" });
  await expect(bar.getByRole("button", { name: "Reject", exact: true })).toBeEnabled();
  await page.getByRole("button", { name: "Show full hash" }).click();
  await expect(page.getByRole("button", { name: "Show short hash" })).toBeVisible();
  await bar.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(page.getByRole("dialog").getByRole("button", { name: "Approve refund" })).toBeVisible();
});
