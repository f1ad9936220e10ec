// What an adopter found in the browser (issue #36): a proposal past its expiry shows one state (Expired, no
// Approve), however its row reads; a paused account's sign-in says it is paused, until when and who can unlock
// it, also for the right password; the Administration page's sections are reachable on a phone through one
// compact menu, without a horizontal scroll.
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { recomputeProposalHash } from "../lib/domain/proposal-hash";
import { prismaFor } from "../scripts/lib/prisma";
import { signIn, staff, useSession } from "./support/auth";
import { freshOrder, withDb } from "./support/db";
import { proposeRefund } from "./support/gateway";

const databaseUrl = () => readFileSync(".data/e2e-database-url", "utf8").trim();

test("a proposal past its expiry shows Expired alone and no Approve, before and after the expiry job writes it", async ({
  page,
}) => {
  const id = await proposeRefund("shop-us", await freshOrder("shop-us", 2_300));
  // As if it had been prepared with an expiry that has now passed: the row still says pending_approval (no sweep
  // yet) and still matches its hash, recomputed over the earlier expiry (the expiry is part of what is hashed).
  const db = prismaFor(databaseUrl());
  try {
    const row = await db.proposal.findUniqueOrThrow({ where: { id } });
    const expired = { ...row, expiresAt: new Date(Date.now() - 60_000) };
    await db.proposal.update({
      where: { id, status: "pending_approval" },
      data: { expiresAt: expired.expiresAt, hash: recomputeProposalHash(expired) },
    });
  } finally {
    await db.$disconnect();
  }
  await useSession(page, staff("shop-us", "reviewer", 0));
  await page.goto(`/proposals/${id}`);
  await expect(page.getByText("Expired", { exact: true }).first()).toBeVisible();
  await expect(page.getByText("Awaiting approval", { exact: true })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Approve", exact: true })).toHaveCount(0);
  // The expiry job then writes it (within seconds), and the page still reads the same.
  await expect
    .poll(
      async () =>
        (await withDb((c) => c.query(`SELECT status::text AS s FROM "Proposal" WHERE id = $1`, [id]))).rows[0]?.s,
      { timeout: 30_000 },
    )
    .toBe("expired");
  await page.reload();
  await expect(page.getByText("Expired", { exact: true }).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Approve", exact: true })).toHaveCount(0);
});

test("a paused account typing the right password is told sign-in is paused, until when, and that an admin can unlock it", async ({
  page,
}) => {
  // An auditor of the other tenant: no other spec signs in as them after the setup project.
  const who = staff("tienda-es", "auditor", 0);
  await withDb((c) =>
    c.query(
      `UPDATE "StaffUser" SET "failedLoginCount" = 10, "lockedUntil" = now() + interval '10 minutes' WHERE email = $1`,
      [who.email],
    ),
  );
  try {
    await page.goto("/sign-in");
    await page.getByLabel(/^(Email|Correo electrónico)$/).fill(who.email);
    await page.getByLabel(/^(Password|Contraseña)$/).fill(who.password);
    await page.getByRole("button", { name: /^(Sign in|Entrar)$/ }).click();
    const alert = page.locator("#sign-in-error");
    await expect(alert).toContainText(/(paused|pausado|pausada)/i);
    await expect(alert).toContainText(/(unlock|desbloquear)/i);
    await expect(alert).not.toContainText(/(Check your email and password|Revisa)/i);
    await expect(page).toHaveURL(/\/sign-in/);
  } finally {
    await withDb((c) =>
      c.query(`UPDATE "StaffUser" SET "failedLoginCount" = 0, "lockedUntil" = NULL WHERE email = $1`, [who.email]),
    );
  }
  // Unlocked, the same password signs in.
  await signIn(page, who);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the Administration sections: one compact menu naming the current section, each section alone, no horizontal scroll", async ({
    page,
  }) => {
    await useSession(page, staff("shop-us", "admin", 0));
    await page.goto("/admin");
    const nav = page.getByRole("navigation", { name: "Admin sections" });
    const menu = nav.locator("summary");
    await expect(menu).toHaveText("Section: Everything");
    // The tab strip is for wider screens: on a phone only the menu shows.
    await expect(nav.locator("ul").first()).toBeHidden();
    await menu.tap();
    await nav.getByRole("link", { name: "Staff", exact: true }).tap();
    await expect(page).toHaveURL(/\/admin\?section=staff$/);
    await expect(page.locator("#staff-title")).toBeVisible();
    await expect(page.locator("#policy-title")).toHaveCount(0);
    await expect(nav.locator("summary")).toHaveText("Section: Staff");
    // Choosing a section closes the menu (it does not cover the section it opened).
    await expect(nav.locator("details")).not.toHaveAttribute("open");
    const staffHeight = await page.evaluate(() => document.documentElement.scrollHeight);

    await nav.locator("summary").tap();
    await expect(nav.getByRole("link", { name: "Staff", exact: true })).toHaveAttribute("aria-current", "page");
    await nav.getByRole("link", { name: "Policy", exact: true }).tap();
    await expect(page).toHaveURL(/\/admin\?section=policy$/);
    await expect(page.locator("#policy-title")).toBeVisible();
    await expect(page.locator("#staff-title")).toHaveCount(0);

    // One section is a fraction of the whole page, and nothing is wider than the phone.
    await page.goto("/admin");
    const wholeHeight = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(staffHeight).toBeLessThan(wholeHeight / 2);
    for (const url of ["/admin", "/admin?section=staff", "/admin?section=policy"]) {
      await page.goto(url);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), url).toBeLessThanOrEqual(390);
    }
  });
});
