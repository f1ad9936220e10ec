import { expect, test } from "@playwright/test";
import { SignJWT } from "jose";
import { useSession, staff } from "./support/auth";
import { withDb } from "./support/db";
import { customerId } from "../scripts/lib/demo-data";
import { endUserTokenAudience } from "../lib/domain/agent-protocol";

// An admin issues an agent key, the key lists tools through /api/agent/tools, the
// admin revokes it and the next call gets 401; a channel secret rotation keeps old tokens working until
// the overlap ends.

test.describe.configure({ mode: "serial" });
const US = "shop-us";
const john = customerId(US, "john");

const tools = (key: string, request: import("@playwright/test").APIRequestContext) =>
  request.get("/api/agent/tools", { headers: { authorization: `Bearer ${key}` } });
const lookup = async (request: import("@playwright/test").APIRequestContext, key: string, token: string) => {
  const res = await request.post("/api/agent/tool-calls", {
    headers: { authorization: `Bearer ${key}`, "x-end-user-token": token },
    data: { type: "tool_use", id: `toolu_${Date.now()}`, name: "lookup_order", input: { order_id: "ORD-2001" } },
  });
  expect(res.status()).toBe(200);
  return JSON.parse((await res.json()).content).code as string;
};
const sign = (secret: string) =>
  new SignJWT({ tenant: US })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(john)
    .setAudience(endUserTokenAudience(US, "e2e_phone"))
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(new TextEncoder().encode(secret));

test("issue a key (shown once) → it lists tools → revoke → the next call gets 401", async ({ page }) => {
  await useSession(page, staff(US, "admin"));
  await page.goto("/admin");
  const form = page.getByRole("region", { name: "Issue an agent key" });
  await form.getByLabel("Channel").selectOption("web_support");
  await form.getByLabel("Label").fill("E2E helpdesk bot");
  await form.getByRole("button", { name: "Issue key" }).click();
  const key = (await form.getByTestId("shown-once").textContent())!.trim();
  expect(key).toMatch(/^agk_/);

  const listed = await tools(key, page.request);
  expect(listed.status()).toBe(200);
  expect(JSON.stringify(await listed.json())).toContain("lookup_order");
  const row = page.getByRole("row", { name: /E2E helpdesk bot/ });
  await page.reload();
  await expect(row).toContainText("active");

  await row.getByRole("button", { name: "Revoke key E2E helpdesk bot" }).click();
  await page
    .getByRole("dialog", { name: "Revoke this agent key?" })
    .getByRole("button", { name: "Revoke key" })
    .click();
  await expect(row).toContainText("revoked");
  expect((await tools(key, page.request)).status()).toBe(401);
  const stored = await withDb(
    async (db) =>
      (await db.query(`SELECT "keyHash", "revokedAt" FROM "AgentKey" WHERE name = 'E2E helpdesk bot'`)).rows,
  );
  expect(stored[0].revokedAt).not.toBeNull();
  expect(JSON.stringify(stored)).not.toContain(key);
});

test("a channel secret rotation keeps old end-user tokens working until the overlap ends", async ({ page }) => {
  await useSession(page, staff(US, "admin"));
  await page.goto("/admin");
  const create = page.getByRole("region", { name: "Create a channel" });
  await create.getByLabel("Channel id (e.g. phone_bot)").fill("e2e_phone");
  await create.getByLabel("Name").fill("E2E phone bot");
  await create.getByRole("checkbox", { name: "lookup_order" }).check();
  await create.getByRole("button", { name: "Create channel" }).click();
  const oldSecret = (await create.getByTestId("shown-once").textContent())!.trim();

  const issue = page.getByRole("region", { name: "Issue an agent key" });
  await page.reload();
  await issue.getByLabel("Channel").selectOption("e2e_phone");
  await issue.getByLabel("Label").fill("E2E phone key");
  await issue.getByRole("button", { name: "Issue key" }).click();
  const key = (await issue.getByTestId("shown-once").textContent())!.trim();
  const oldToken = await sign(oldSecret);
  expect(await lookup(page.request, key, oldToken)).toBe("ok");

  const rotate = page.getByRole("form", { name: "Rotate the secret of e2e_phone" });
  await rotate.getByLabel("Old secret stays valid for (minutes)").fill("30");
  await rotate.getByRole("button", { name: "Rotate secret" }).click();
  const newSecret = (await rotate.getByTestId("shown-once").textContent())!.trim();
  expect(newSecret).not.toBe(oldSecret);
  const newToken = await sign(newSecret);
  expect(await lookup(page.request, key, oldToken)).toBe("ok");
  expect(await lookup(page.request, key, newToken)).toBe("ok");

  // The overlap ends (moved to the past rather than waiting 30 minutes).
  await withDb((db) =>
    db.query(`UPDATE "Channel" SET "previousSecretValidUntil" = now() - interval '1 second' WHERE slug = 'e2e_phone'`),
  );
  expect(await lookup(page.request, key, oldToken)).not.toBe("ok");
  expect(await lookup(page.request, key, newToken)).toBe("ok");
});
