// Headers and origins against the production build (`next start` behind scripts/start.ts):
// a Content-Security-Policy whose nonce is on every script, COOP/CORP, no HSTS over plain http;
// server actions refused (403, no stack in the log) without an Origin or from another one, even when a
// forged X-Forwarded-Host claims that origin; and a session cookie forged with the secret earlier
// versions published no longer opens a session, while one made with this install's secret does.
import { expect, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import { encode } from "next-auth/jwt";
import { publicDemoSecrets, type DemoSecrets } from "../lib/config/demo-secrets";
import { SESSION_ABSOLUTE_SECONDS } from "../lib/server/auth/session-lifetime";
import { withDb } from "./support/db";

const port = Number(process.env.E2E_PORT ?? 3100);
const base = `http://localhost:${port}`;

test("pages carry a nonce-based CSP that is on every script, and COOP/CORP; no HSTS over http", async ({
  request,
  page,
}) => {
  const first = await request.get(`${base}/sign-in`);
  expect(first.status()).toBe(200);
  const csp = first.headers()["content-security-policy"] ?? "";
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  expect(nonce).toBeTruthy();
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  expect(csp).not.toContain("unsafe-eval");
  expect(first.headers()["cross-origin-opener-policy"]).toBe("same-origin");
  expect(first.headers()["cross-origin-resource-policy"]).toBe("same-origin");
  expect(first.headers()["strict-transport-security"]).toBeUndefined();

  const html = await first.text();
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  expect(scripts.length).toBeGreaterThan(0);
  for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);

  const second = await request.get(`${base}/sign-in`);
  expect(second.headers()["content-security-policy"]).not.toBe(csp); // a fresh nonce per response

  // The page still works under the policy: no CSP violation, hydrated (the form is interactive).
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to/.test(m.text())) violations.push(m.text());
  });
  await page.goto(`${base}/sign-in`);
  await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeEnabled();
  await page.waitForLoadState("networkidle");
  expect(violations).toEqual([]);
});

test("a forged X-Forwarded-Proto does not turn on HSTS", async ({ request }) => {
  const res = await request.get(`${base}/sign-in`, { headers: { "x-forwarded-proto": "https" } });
  expect(res.headers()["strict-transport-security"]).toBeUndefined();
});

test("server actions: missing Origin, foreign Origin and forged X-Forwarded-Host are refused with 403", async ({
  request,
}) => {
  const action = {
    "next-action": "0000000000000000000000000000000000000000",
    "content-type": "text/plain;charset=UTF-8",
  };
  const missing = await request.post(`${base}/audit`, { headers: action, data: "[]" });
  expect(missing.status()).toBe(403);
  expect(await missing.json()).toEqual({ error: "This request needs an Origin header." });

  const foreign = await request.post(`${base}/audit`, {
    headers: { ...action, origin: "http://evil.example" },
    data: "[]",
  });
  expect(foreign.status()).toBe(403);

  // Next.js would compare the Origin with X-Forwarded-Host: the forged pair must not pass.
  const forged = await request.post(`${base}/audit`, {
    headers: { ...action, origin: "http://evil.example", "x-forwarded-host": "evil.example" },
    data: "[]",
  });
  expect(forged.status()).toBe(403);
  expect(await forged.json()).toEqual({ error: "Cross-origin request refused." });

  // The same request from this origin passes the gate (what Next.js then answers is its business).
  const same = await request.post(`${base}/audit`, {
    headers: { ...action, origin: base },
    data: "[]",
    maxRedirects: 0,
  });
  expect(same.status()).not.toBe(403);

  const log = readFileSync(".data/e2e-server.log", "utf8");
  expect(log).not.toContain("Invalid Server Actions request");
  expect(log).not.toMatch(/x-forwarded-host.*does not match/i);
});

test("a session cookie forged with the old public secret opens nothing; one made with this install's secret does", async ({
  request,
}) => {
  const staff = await withDb(
    async (db) =>
      (
        await db.query(
          `SELECT s.id, s.email, s.name, s."tenantId", s.roles, s."sessionVersion", COALESCE(s.locale, t.locale) AS locale FROM "StaffUser" s JOIN "Tenant" t ON t.id = s."tenantId" WHERE 'reviewer' = ANY(s.roles) AND NOT s.disabled AND t.active ORDER BY s.email LIMIT 1`,
        )
      ).rows[0],
  );
  expect(staff).toBeTruthy();
  const claims = {
    sub: staff.id,
    uid: staff.id,
    name: staff.name,
    email: staff.email,
    tenantId: staff.tenantId,
    roles: staff.roles,
    locale: staff.locale,
    sv: staff.sessionVersion,
    authTime: Math.floor(Date.now() / 1000),
    amr: "password",
  };
  const installed = JSON.parse(readFileSync(".data/demo-secrets.json", "utf8")) as DemoSecrets;
  expect(installed.NEXTAUTH_SECRET).not.toBe(publicDemoSecrets.NEXTAUTH_SECRET);

  const asCookie = async (secret: string) => ({
    cookie: `next-auth.session-token=${await encode({ token: claims, secret, maxAge: 3600 })}`,
  });
  const forged = await request.get(`${base}/api/proposals`, {
    headers: await asCookie(publicDemoSecrets.NEXTAUTH_SECRET),
  });
  expect(forged.status()).toBe(401);
  const genuine = await request.get(`${base}/api/proposals`, { headers: await asCookie(installed.NEXTAUTH_SECRET) });
  expect(genuine.status()).toBe(200);

  // The absolute lifetime (12 h from the original sign-in) holds whatever the cookie says: a genuine cookie
  // whose sign-in was 12 h and one minute ago opens nothing; one a minute inside the limit still works.
  const signedInAgo = async (seconds: number) => ({
    cookie: `next-auth.session-token=${await encode({ token: { ...claims, authTime: Math.floor(Date.now() / 1000) - seconds }, secret: installed.NEXTAUTH_SECRET, maxAge: 3600 })}`,
  });
  const tooOld = await request.get(`${base}/api/proposals`, {
    headers: await signedInAgo(SESSION_ABSOLUTE_SECONDS + 60),
  });
  expect(tooOld.status()).toBe(401);
  const justInside = await request.get(`${base}/api/proposals`, {
    headers: await signedInAgo(SESSION_ABSOLUTE_SECONDS - 60),
  });
  expect(justInside.status()).toBe(200);
});
