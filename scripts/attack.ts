// npm run attack [-- --base-url http://127.0.0.1:3000 --database-url postgres://… --sandbox-url http://127.0.0.1:12111] [--only "TEXT|TEXT…"]
//
// Replays the concurrency and abuse cases (open redirects and unbounded bodies included) against an instance, as an outsider with the demo's
// credentials would, and prints one row per case: tries, violations (all must be 0). Bounded: every case
// sends a fixed number of requests, every request has a time-out, and the whole run stops by itself.
// Loopback only: it refuses any other address.
//
// Without --base-url it starts its own throw-away instance (embedded PostgreSQL, worker, sandbox provider,
// demo data: the production build, built first if missing) on free ports and stops it at the end. Against a
// running instance, pass its URL and its database (fresh orders are inserted there, results are counted
// there) and its sandbox (to register the fresh orders' payment intents).
//
// Not part of `npm test`: the same rules have their own tests; this is the black-box replay.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateKeyPairSync, randomBytes, randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type pg from "pg";
import { encode } from "next-auth/jwt";
import { publicDemoSecrets } from "../lib/config/demo-secrets";
import { SIG_COSIGNATURE_V1, vkeyOf } from "../lib/domain/signed-note";
import { withPgClient } from "../lib/server/db/pg-client";
import { demoCredentials, demoTenants } from "./lib/demo-data";
import { sandboxControl } from "../provider-sandbox/control-client";
import { demoPaymentProvider } from "../lib/config/demo-payment-provider";
import { createFreshOrder } from "./lib/fresh-order";
import { findFreePort } from "./lib/embedded-postgres";
import { postChunked } from "./lib/chunked-post";

const argv = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const REQUEST_TIMEOUT_MS = 30_000;
const RUN_DEADLINE = Date.now() + 15 * 60_000;

function assertLoopback(url: string): void {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
  if (!(host === "localhost" || host === "::1" || /^127\./.test(host))) {
    console.error(`attack: ${url} is not a loopback address; this script only attacks an instance on this machine.`);
    process.exit(2);
  }
}

// ── the instance ────────────────────────────────────────────────────────────────────────────────────
let server: ChildProcess | null = null;
let baseUrl = flag("base-url");
let databaseUrl = flag("database-url");
let sandboxUrl = flag("sandbox-url");

async function waitHealthy(url: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if ((await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2_000) })).ok) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`no healthy instance at ${url} after ${ms / 1000} s`);
}

async function startOwnInstance(): Promise<void> {
  const port = await findFreePort();
  const dir = mkdtempSync(join(tmpdir(), "attack-"));
  const urlFile = join(dir, "database-url");
  baseUrl = `http://127.0.0.1:${port}`;
  console.log(`starting a throw-away instance on ${baseUrl} (embedded PostgreSQL, worker, sandbox)…`);
  server = spawn(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", join("scripts", "start.ts"), "--port", String(port)],
    {
      env: {
        ...process.env,
        EMBEDDED_PG_EPHEMERAL: "1",
        HOST: "127.0.0.1",
        NEXTAUTH_URL: baseUrl,
        E2E_DATABASE_URL_FILE: urlFile,
        LOG_LEVEL: "warn",
        NEXT_TELEMETRY_DISABLED: "1",
      },
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  server.on("exit", (code) => {
    if (server) console.error(`attack: the instance exited early (${code})`);
  });
  await waitHealthy(baseUrl, 300_000);
  databaseUrl = readFileSync(urlFile, "utf8").trim();
  sandboxUrl = readFileSync(join(dir, "e2e-sandbox-url"), "utf8").trim();
}

async function stopOwnInstance(): Promise<void> {
  const s = server;
  server = null;
  if (!s || s.exitCode !== null) return;
  s.kill("SIGTERM");
  await new Promise<void>((resolve) => {
    const t = setTimeout(() => {
      s.kill("SIGKILL");
      resolve();
    }, 20_000);
    s.on("exit", () => {
      clearTimeout(t);
      resolve();
    });
  });
}

// ── clients ─────────────────────────────────────────────────────────────────────────────────────────
type Res = { status: number; json: Record<string, unknown> | null; headers: Headers };

async function http(path: string, init: RequestInit & { cookies?: string } = {}): Promise<Res> {
  const headers = new Headers(init.headers);
  if (init.cookies) headers.set("cookie", init.cookies);
  const res = await fetch(`${baseUrl}${path}`, {
    ...init,
    headers,
    redirect: "manual",
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await res.text();
  let json: Record<string, unknown> | null;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = null;
  }
  return { status: res.status, json, headers: res.headers };
}

const cookiesOf = (headers: Headers) => headers.getSetCookie().map((c) => c.split(";")[0]!);

/** Signs a staff member in through next-auth's credentials flow (CSRF token first), as the sign-in form does. */
async function signIn(email: string, password: string): Promise<string> {
  const csrf = await http("/api/auth/csrf");
  const jar = cookiesOf(csrf.headers);
  const body = new URLSearchParams({
    csrfToken: String(csrf.json?.csrfToken),
    email,
    password,
    json: "true",
    callbackUrl: `${baseUrl}/queue`,
  });
  const res = await http("/api/auth/callback/credentials", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: baseUrl! },
    body,
    cookies: jar.join("; "),
  });
  const session = cookiesOf(res.headers).find((c) => /session-token=/.test(c) && !/session-token=$/.test(c));
  if (!session) throw new Error(`sign-in of ${email} failed (${res.status})`);
  return [...jar, session].join("; ");
}

const staffPost = (cookies: string, path: string, body: unknown, origin: string | null = baseUrl!) =>
  http(path, {
    method: "POST",
    cookies,
    headers: { "content-type": "application/json", ...(origin ? { origin } : {}) },
    body: JSON.stringify(body),
  });

type Creds = Awaited<ReturnType<typeof demoCredentials>>;
let creds: Creds;
const tenantOf = (slug: string) => creds.tenants.find((t) => t.slug === slug)!;
const member = (slug: string, role: string, n = 0) => tenantOf(slug).staff.filter((s) => s.roles.includes(role))[n]!;
const webKey = (slug: string) => tenantOf(slug).agents.find((a) => a.channel === "web_support")!.key;
const customerToken = (slug: string) => tenantOf(slug).customers[0]!.endUserToken;

let callSeq = 0;
async function toolCall(
  slug: string,
  name: string,
  input: unknown,
  extra: Record<string, string> = {},
): Promise<{ status: number; code: string; result: Record<string, unknown> }> {
  const res = await http("/api/agent/tool-calls", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${webKey(slug)}`,
      "x-end-user-token": customerToken(slug),
      ...extra,
    },
    body: JSON.stringify({ type: "tool_use", id: `toolu_attack_${++callSeq}`, name, input }),
  });
  const content =
    typeof res.json?.content === "string"
      ? (JSON.parse(res.json.content) as { code: string; result?: Record<string, unknown> })
      : { code: typeof res.json?.code === "string" ? res.json.code : String(res.status) };
  return { status: res.status, code: content.code, result: content.result ?? {} };
}

function db<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  return withPgClient(databaseUrl!, fn);
}

const fresh = (slug: string, amountMinor: number) =>
  createFreshOrder({
    databaseUrl: databaseUrl!,
    sandboxUrl: sandboxUrl!,
    tenantSlug: slug,
    amountMinor,
    prefix: "ATK",
  });

async function prepared(slug: string, amountMinor: number): Promise<{ id: string; hash: string; order: string }> {
  const order = await fresh(slug, amountMinor);
  const a = await toolCall(
    slug,
    "prepare_refund",
    { order_id: order, reason: "damaged_item" },
    { "x-trace-id": `attack-${randomUUID()}` },
  );
  if (a.code !== "approval_required") throw new Error(`prepare_refund of ${order}: ${a.code}`);
  return { id: String(a.result.proposal_id), hash: String(a.result.hash), order };
}

// ── harness set-up (directly in the instance's database: the cases need room, or a tight limit) ──────
type Budgets = { key: number; endUser: number };
async function setBudgets(slug: string, b: Budgets): Promise<void> {
  await db((c) =>
    c.query(
      `INSERT INTO "AgentBudgetPolicy" ("tenantId", "maxCallsPerKeyPerWindow", "maxCallsPerEndUserPerWindow", "updatedAt")
       SELECT id, $2, $3, now() FROM "Tenant" WHERE slug = $1
       ON CONFLICT ("tenantId") DO UPDATE SET "maxCallsPerKeyPerWindow" = $2, "maxCallsPerEndUserPerWindow" = $3, "updatedAt" = now()`,
      [slug, b.key, b.endUser],
    ),
  );
}
async function budgetsOf(slug: string): Promise<Budgets | null> {
  const row = await db(
    async (c) =>
      (
        await c.query<{ key: number; endUser: number }>(
          `SELECT b."maxCallsPerKeyPerWindow" AS key, b."maxCallsPerEndUserPerWindow" AS "endUser" FROM "AgentBudgetPolicy" b JOIN "Tenant" t ON t.id = b."tenantId" WHERE t.slug = $1`,
          [slug],
        )
      ).rows[0],
  );
  return row ?? null;
}
const ROOMY: Budgets = { key: 100_000, endUser: 100_000 };

// ── the second-admin rule (docs/admin-api.md "Changes that need a second admin") ─────────────────────
// One admin (A) tries to create or take over the "second admin" they need: (a) inviting an admin, (b) promoting
// a reviewer, (c) resetting the other admin's sign-in. Harness: the tenant's auditor is made an honest second
// admin (B) directly in the database for the case; everything is put back afterwards.
const staffSend = (cookies: string, method: "PATCH" | "POST", path: string, body: unknown) =>
  http(path, {
    method,
    cookies,
    headers: { "content-type": "application/json", origin: baseUrl! },
    body: JSON.stringify(body),
  });
const staffIdOf = (email: string) =>
  db(
    async (c) =>
      (
        await c.query<{ id: string; roles: string[] }>(
          `SELECT id, roles::text[] AS roles FROM "StaffUser" WHERE email = $1`,
          [email],
        )
      ).rows[0],
  );
const policyVersionOf = (slug: string) =>
  db(
    async (c) =>
      (
        await c.query<{ v: number; t: string | null }>(
          `SELECT "policyVersion" AS v, "dualApprovalThresholdMinor"::text AS t FROM "Tenant" WHERE slug = $1`,
          [slug],
        )
      ).rows[0]!,
  );

async function withSecondAdmin(
  run: (s: { a: string; b: string; version: number }) => Promise<Outcome>,
): Promise<Outcome> {
  const honest = member(ES, "auditor");
  const promoted = member(ES, "reviewer", 0);
  const tenant = `(SELECT id FROM "Tenant" WHERE slug = '${ES}')`;
  await db((c) =>
    c.query(`UPDATE "StaffUser" SET roles = ARRAY['admin','auditor']::"Role"[] WHERE email = $1`, [honest.email]),
  );
  try {
    const a = await signIn(member(ES, "admin").email, member(ES, "admin").password);
    const b = await signIn(honest.email, honest.password);
    // A's own loosening of the policy, waiting for a second admin: what A wants to approve alone.
    const { t } = await policyVersionOf(ES);
    const loosen = await staffPost(a, "/api/admin/policy", {
      values: { dualApprovalThresholdMinor: Number(t ?? 0) + 1 },
    });
    if (loosen.status !== 201 || loosen.json?.status !== "awaiting_second_admin")
      throw new Error(`the loosening answered ${loosen.status}`);
    return await run({ a, b, version: Number(loosen.json.version) });
  } finally {
    await db(async (c) => {
      await c.query(
        `UPDATE "AdminChange" SET status = 'cancelled' WHERE status = 'pending' AND "tenantId" = ${tenant}`,
      );
      await c.query(
        `UPDATE "PolicyVersion" SET status = 'rejected', "decidedAt" = now() WHERE status = 'awaiting_second_admin' AND "tenantId" = ${tenant}`,
      );
      for (const [email, roles] of [
        [honest.email, "{auditor}"],
        [promoted.email, "{reviewer}"],
      ])
        await c.query(
          `UPDATE "StaffUser" SET roles = $2::"Role"[], "adminSince" = NULL, "adminGrantedByIds" = '{}', "credentialsResetByIds" = '{}' WHERE email = $1`,
          [email, roles],
        );
    });
  }
}

/** Violations of one attempt: the change applied at once, or the proposer could approve it themselves. */
async function selfApproval(a: string, res: Res, applied: boolean): Promise<number> {
  let v = res.status === 202 && res.json?.status === "awaiting_second_admin" ? 0 : 1;
  if (applied) v++;
  const change = (res.json?.change as { id?: string } | undefined)?.id;
  if (change && (await staffPost(a, `/api/admin/changes/${change}/approve`, {})).status !== 403) v++;
  return v;
}

const governanceCases: Case[] = [
  {
    name: "(a) one admin invites an admin account to approve their own loosening",
    run: () =>
      withSecondAdmin(async ({ a, version }) => {
        const email = `attack-admin-${randomUUID().slice(0, 8)}@tienda-es.test`;
        const res = await staffPost(a, "/api/admin/staff", { email, name: "Attack Admin", roles: ["admin"] });
        const v = await selfApproval(a, res, typeof res.json?.setupUrl === "string" || !!(await staffIdOf(email)));
        const applied = (await policyVersionOf(ES)).v === version;
        return {
          tries: 2,
          violations: v + (applied ? 1 : 0),
          note: `invite answered ${res.status}; no account, no link until a second admin approves`,
        };
      }),
  },
  {
    name: "(b) one admin promotes a reviewer, who then approves the admin's loosening",
    run: () =>
      withSecondAdmin(async ({ a, b, version }) => {
        const who = member(ES, "reviewer", 0);
        const target = (await staffIdOf(who.email))!;
        const res = await staffSend(a, "PATCH", `/api/admin/staff/${target.id}`, { roles: ["admin", "reviewer"] });
        let v = await selfApproval(a, res, (await staffIdOf(who.email))!.roles.includes("admin"));
        // Even when the honest admin approves the promotion, the promoted reviewer's approval of A's loosening does not count.
        const change = (res.json?.change as { id?: string } | undefined)?.id;
        if (change) await staffPost(b, `/api/admin/changes/${change}/approve`, {});
        const r = await signIn(who.email, who.password);
        const approve = await staffPost(r, `/api/admin/policy/${version}/approve`, {});
        if (approve.status === 200 || (await policyVersionOf(ES)).v === version) v++;
        return {
          tries: 3,
          violations: v,
          note: `role change answered ${res.status}; the promoted admin's approval: ${approve.status} ${String((approve.json?.error as { reason?: string } | undefined)?.reason)}`,
        };
      }),
  },
  {
    name: "(c) one admin resets the other admin's sign-in to act as them",
    run: () =>
      withSecondAdmin(async ({ a }) => {
        const honest = member(ES, "auditor");
        const target = (await staffIdOf(honest.email))!;
        const res = await staffPost(a, `/api/admin/staff/${target.id}/setup-link`, {});
        let v = await selfApproval(a, res, typeof res.json?.setupUrl === "string");
        // The other admin is not locked out: their password still signs in.
        await signIn(honest.email, honest.password).catch(() => v++);
        return {
          tries: 2,
          violations: v,
          note: `setup link answered ${res.status}; no link until a second admin approves`,
        };
      }),
  },
];

// ── the cases ───────────────────────────────────────────────────────────────────────────────────────
type Outcome = { tries: number; violations: number; note: string };
type Case = { name: string; run: () => Promise<Outcome> };
const US = "shop-us";
const ES = "tienda-es";

const cases: Case[] = [
  {
    name: "20 concurrent prepare_refund of one order → one proposal",
    async run() {
      let violations = 0;
      const rounds = 3;
      for (let r = 0; r < rounds; r++) {
        const order = await fresh(US, 1_000);
        const answers = await Promise.all(
          Array.from({ length: 20 }, () =>
            toolCall(
              US,
              "prepare_refund",
              { order_id: order, reason: "damaged_item" },
              { "x-trace-id": `attack-${randomUUID()}` },
            ),
          ),
        );
        const ids = new Set(
          answers.filter((a) => a.code === "approval_required").map((a) => String(a.result.proposal_id)),
        );
        const rows = await db(
          async (c) =>
            (
              await c.query<{ n: number }>(
                `SELECT count(*)::int AS n FROM "Proposal" p JOIN "Order" o ON o.id = p."orderId" WHERE o.number = $1`,
                [order],
              )
            ).rows[0]!.n,
        );
        if (ids.size !== 1 || rows !== 1) violations++;
      }
      return { tries: rounds * 20, violations, note: "proposals per order must be 1" };
    },
  },
  {
    name: "2 reviewers × 10 parallel approvals of one proposal → approved once, executed once",
    async run() {
      const a = await signIn(member(US, "reviewer", 0).email, member(US, "reviewer", 0).password);
      const b = await signIn(member(US, "reviewer", 1).email, member(US, "reviewer", 1).password);
      let violations = 0;
      const rounds = 3;
      for (let r = 0; r < rounds; r++) {
        const p = await prepared(US, 1_200);
        await Promise.all(
          [a, b].flatMap((cookies) =>
            Array.from({ length: 10 }, () => staffPost(cookies, `/api/proposals/${p.id}/approve`, { hash: p.hash })),
          ),
        );
        const [row] = await db(
          async (c) =>
            (
              await c.query<{ approvals: number; required: number; executions: number }>(
                `SELECT (SELECT count(*)::int FROM "Approval" WHERE "proposalId" = p.id) AS approvals, p."requiredApprovals" AS required,
                    (SELECT count(*)::int FROM "Execution" WHERE "proposalId" = p.id) AS executions FROM "Proposal" p WHERE p.id = $1`,
                [p.id],
              )
            ).rows,
        );
        if (!row || row.approvals !== row.required || row.executions > 1) violations++;
      }
      return { tries: rounds * 20, violations, note: "approvals = required, executions ≤ 1" };
    },
  },
  {
    name: "daily approval cap: two approvals by one reviewer arriving together",
    async run() {
      const who = member(ES, "reviewer", 1);
      const reviewer = await signIn(who.email, who.password);
      const cap = 1_000_000;
      const before = await db(
        async (c) =>
          (
            await c.query<{ cap: string | null }>(
              `SELECT "reviewerDailyApprovalLimitMinor"::text AS cap FROM "Tenant" WHERE slug = $1`,
              [ES],
            )
          ).rows[0]!.cap,
      );
      await db((c) => c.query(`UPDATE "Tenant" SET "reviewerDailyApprovalLimitMinor" = $2 WHERE slug = $1`, [ES, cap]));
      let violations = 0;
      let tries = 0;
      for (let r = 0; r < 3; r++) {
        // Two proposals that each fit under what is left today, but not together.
        const used = await db(async (c) =>
          Number(
            (
              await c.query<{ used: string }>(
                `SELECT COALESCE(SUM(p."amountMinor"), 0)::text AS used FROM "Approval" a JOIN "Proposal" p ON p.id = a."proposalId" JOIN "StaffUser" s ON s.id = a."approverId"
              WHERE s.email = $1 AND a."createdAt" > now() - interval '1 day'`,
                [who.email],
              )
            ).rows[0]!.used,
          ),
        );
        const left = Number(cap) - used;
        const amount = Math.floor(left / 2) + 1;
        if (amount < 2 || amount > left) break;
        const [p1, p2] = [await prepared(ES, amount), await prepared(ES, amount)];
        const answers = await Promise.all(
          [p1, p2].map((p) => staffPost(reviewer, `/api/proposals/${p.id}/approve`, { hash: p.hash })),
        );
        tries += 2;
        if (answers.filter((x) => x.status === 200).length > 1) violations++;
      }
      await db((c) =>
        c.query(`UPDATE "Tenant" SET "reviewerDailyApprovalLimitMinor" = $2 WHERE slug = $1`, [ES, before]),
      );
      return { tries, violations, note: `at most one of each pair may pass (cap ${cap} minor units a day)` };
    },
  },
  {
    name: "forged session cookie signed with the old public secret",
    async run() {
      const who = member(US, "reviewer", 0);
      const user = await db(
        async (c) =>
          (
            await c.query<{ id: string; sv: number; tenantId: string }>(
              `SELECT id, "sessionVersion" AS sv, "tenantId" FROM "StaffUser" WHERE email = $1`,
              [who.email],
            )
          ).rows[0]!,
      );
      const now = Math.floor(Date.now() / 1000);
      const token = await encode({
        secret: publicDemoSecrets.NEXTAUTH_SECRET,
        token: {
          sub: user.id,
          uid: user.id,
          email: who.email,
          tenantId: user.tenantId,
          roles: ["reviewer", "admin"],
          locale: "en-US",
          sv: user.sv,
          authTime: now,
          amr: "password",
          iat: now,
        },
      });
      let violations = 0;
      const names = ["next-auth.session-token", "__Secure-next-auth.session-token"];
      for (const name of names) {
        const res = await http("/api/proposals", { cookies: `${name}=${token}` });
        if (res.status === 200) violations++;
      }
      return { tries: names.length, violations, note: "must be 401, never 200" };
    },
  },
  {
    name: "state-changing staff requests without Origin or from another origin",
    async run() {
      const who = member(US, "reviewer", 0);
      const cookies = await signIn(who.email, who.password);
      const p = await prepared(US, 900);
      let violations = 0;
      for (const origin of [null, "http://evil.example", "null"]) {
        const res = await staffPost(cookies, `/api/proposals/${p.id}/approve`, { hash: p.hash }, origin);
        if (res.status !== 403) violations++;
      }
      const approvals = await db(
        async (c) =>
          (await c.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Approval" WHERE "proposalId" = $1`, [p.id]))
            .rows[0]!.n,
      );
      if (approvals !== 0) violations++;
      return { tries: 3, violations, note: "403 and no approval" };
    },
  },
  {
    name: "a reviewer of one tenant approves another tenant's proposal",
    async run() {
      const who = member(ES, "reviewer", 0);
      const cookies = await signIn(who.email, who.password);
      const p = await prepared(US, 700);
      const res = await staffPost(cookies, `/api/proposals/${p.id}/approve`, { hash: p.hash });
      const approvals = await db(
        async (c) =>
          (await c.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Approval" WHERE "proposalId" = $1`, [p.id]))
            .rows[0]!.n,
      );
      return { tries: 1, violations: (res.status === 404 ? 0 : 1) + approvals, note: "not_found, no approval" };
    },
  },
  {
    name: "approving a superseded proposal with the hash that was shown",
    async run() {
      const a = await signIn(member(US, "reviewer", 0).email, member(US, "reviewer", 0).password);
      const b = await signIn(member(US, "reviewer", 1).email, member(US, "reviewer", 1).password);
      const p = await prepared(US, 1_500);
      const edit = await staffPost(a, `/api/proposals/${p.id}/edit`, { hash: p.hash, amountMinor: 1_000 });
      if (edit.status !== 200) return { tries: 0, violations: 0, note: `skipped: edit answered ${edit.status}` };
      const res = await staffPost(b, `/api/proposals/${p.id}/approve`, { hash: p.hash });
      return { tries: 1, violations: res.status === 200 ? 1 : 0, note: "the superseded proposal is never approved" };
    },
  },
  {
    name: "step-up password guessing (20 wrong, then the right one)",
    async run() {
      const who = member(US, "reviewer", 1);
      const cookies = await signIn(who.email, who.password);
      const p = await prepared(US, 800);
      for (let i = 0; i < 20; i++)
        await staffPost(cookies, `/api/proposals/${p.id}/approve`, {
          hash: p.hash,
          stepUp: { method: "password", password: `wrong-${i}` },
        });
      const right = await staffPost(cookies, `/api/proposals/${p.id}/approve`, {
        hash: p.hash,
        stepUp: { method: "password", password: who.password },
      });
      // Leave the account as we found it for whoever uses the demo next.
      await db((c) =>
        c
          .query(`UPDATE "StaffUser" SET "failedLoginCount" = 0, "lockedUntil" = NULL WHERE email = $1`, [who.email])
          .catch(() => null),
      );
      return {
        tries: 21,
        violations: right.status === 200 ? 1 : 0,
        note: "the account is paused before the right guess",
      };
    },
  },
  {
    name: "agent budgets with a fresh X-Trace-Id per call, and with none",
    async run() {
      // A tight per-key budget for this case only; a fresh trace id per call (or none) must not reset it.
      const limit = 60;
      await setBudgets(ES, { key: limit, endUser: ROOMY.endUser });
      try {
        // Start in a fresh window, so the count is not split across a window edge.
        const wait = 60_000 - (Date.now() % 60_000);
        if (wait < 20_000) await new Promise((r) => setTimeout(r, wait + 500));
        const calls = limit + 20;
        const answers = [];
        for (let i = 0; i < calls; i++)
          answers.push(
            await toolCall(
              ES,
              "lookup_order",
              { order_id: "ORD-1001" },
              i % 2 ? { "x-trace-id": `attack-${randomUUID()}` } : {},
            ),
          );
        const passed = answers.filter((a) => a.code !== "limit_exceeded").length;
        const refused = answers.filter((a) => a.code === "limit_exceeded").length;
        return {
          tries: calls,
          violations: Math.max(0, passed - limit) + (refused === 0 ? 1 : 0),
          note: `${passed} passed, ${refused} limit_exceeded (budget ${limit} per key and minute)`,
        };
      } finally {
        await setBudgets(ES, ROOMY);
      }
    },
  },
  {
    name: "a flood of requests with bad agent keys",
    async run() {
      const before = await db(
        async (c) =>
          (await c.query<{ n: number }>(`SELECT count(*)::int AS n FROM "AuditEvent" WHERE "tenantId" IS NULL`))
            .rows[0]!.n,
      );
      const tries = 300;
      const answers: number[] = [];
      for (let i = 0; i < tries; i += 20) {
        answers.push(
          ...(await Promise.all(
            Array.from(
              { length: 20 },
              async () =>
                (
                  await http("/api/agent/tool-calls", {
                    method: "POST",
                    headers: {
                      "content-type": "application/json",
                      authorization: `Bearer agk_${randomBytes(20).toString("hex")}`,
                    },
                    body: "{}",
                  })
                ).status,
            ),
          )),
        );
      }
      const after = await db(
        async (c) =>
          (await c.query<{ n: number }>(`SELECT count(*)::int AS n FROM "AuditEvent" WHERE "tenantId" IS NULL`))
            .rows[0]!.n,
      );
      const throttled = answers.filter((s) => s === 429).length;
      const accepted = answers.filter((s) => s < 400).length;
      // Violations: a bad key that got through, no throttling at all, or one audit row per request.
      const violations = accepted + (throttled === 0 ? 1 : 0) + (after - before >= tries / 2 ? 1 : 0);
      return { tries, violations, note: `${throttled} throttled (429), ${after - before} audit rows` };
    },
  },
  {
    name: "an oversized body with a valid agent key",
    async run() {
      const big = JSON.stringify({
        type: "tool_use",
        id: "toolu_big",
        name: "lookup_order",
        input: { order_id: "x".repeat(5 * 1024 * 1024) },
      });
      const res = await http("/api/agent/tool-calls", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${webKey(US)}` },
        body: big,
      });
      const alive = (await http("/api/health")).status === 200;
      return { tries: 1, violations: (res.status === 413 ? 0 : 1) + (alive ? 0 : 1), note: `answered ${res.status}` };
    },
  },
  openRedirectCase(),
  unboundedBodyCase(),
  witnessReadBackCase(),
  unstorableOrderValuesCase(),
  foreignPaymentCase(),
  providerCurrencyCase(),
  webhookPlacementCase(),
  providerSwitchCase(),
  lockOrderCase(),
  hashedDisplayCase(),
  ...governanceCases,
  {
    // Last on purpose: it leaves the tenant's log refusing to be signed (which is the point).
    name: "the audit log's tail deleted as the database owner → never signed again, health says tampered",
    async run() {
      const logOf = async () =>
        db(async (c) => (await c.query<{ id: string }>(`SELECT id FROM "Tenant" WHERE slug = $1`, [ES])).rows[0]!.id);
      const logId = await logOf();
      const signed = async () =>
        db(
          async (c) =>
            (
              await c.query<{ size: number; root: string }>(
                `SELECT "treeSize" AS size, "rootHash" AS root FROM "AuditSignedCheckpoint" WHERE "logId" = $1 ORDER BY "treeSize"`,
                [logId],
              )
            ).rows,
        );
      const settled = async () => {
        for (let i = 0; i < 50; i++) {
          const n = await db(
            async (c) =>
              (
                await c.query<{ n: number }>(`SELECT count(*)::int AS n FROM "AuditPending" WHERE "logId" = $1`, [
                  logId,
                ])
              ).rows[0]!.n,
          );
          if (n === 0) return;
          await new Promise((r) => setTimeout(r, 200));
        }
      };
      for (let i = 0; i < 3; i++) {
        await toolCall(ES, "lookup_order", { order_id: "ORD-1001" }, { "x-trace-id": `attack-${randomUUID()}` });
        await settled();
      }
      const before = await signed();
      if (before.length < 3) return { tries: 0, violations: 1, note: "not enough signed checkpoints to truncate" };
      const keep = before.at(-3)!.size;
      await db(async (c) => {
        await c.query("BEGIN");
        for (const t of ["AuditEvent", "AuditLeaf", "AuditTreeNode", "AuditSignedCheckpoint"])
          await c.query(`ALTER TABLE "${t}" DISABLE TRIGGER USER`);
        await c.query(
          `WITH gone AS (DELETE FROM "AuditLeaf" WHERE "logId" = $1 AND "leafIndex" >= $2 RETURNING "eventId") DELETE FROM "AuditEvent" WHERE id IN (SELECT "eventId" FROM gone)`,
          [logId, keep],
        );
        await c.query(`DELETE FROM "AuditTreeNode" WHERE "logId" = $1 AND ("index" + 1) * (1 << "level") > $2`, [
          logId,
          keep,
        ]);
        await c.query(`DELETE FROM "AuditSignedCheckpoint" WHERE "logId" = $1 AND "treeSize" > $2`, [logId, keep]);
        for (const t of ["AuditEvent", "AuditLeaf", "AuditTreeNode", "AuditSignedCheckpoint"])
          await c.query(`ALTER TABLE "${t}" ENABLE TRIGGER USER`);
        await c.query("COMMIT");
      });
      // New events: a sequencer without memory would now sign a second history over the sizes it signed.
      for (let i = 0; i < 3; i++)
        await toolCall(ES, "lookup_order", { order_id: "ORD-1001" }, { "x-trace-id": `attack-${randomUUID()}` });
      await new Promise((r) => setTimeout(r, 3_000));
      const after = await signed();
      // Every checkpoint of those sizes was deleted: any there now is a new signature over a size already signed.
      const resigned = after.filter((c) => c.size > keep && c.size <= before.at(-1)!.size).length;
      const health = (await http("/api/health")).json as { checks?: { auditSignedHistory?: string } } | null;
      // (Without the signer's memory the next batch signs size keep+1…: `resigned` counts those.)
      const reported = health?.checks?.auditSignedHistory === "tampered";
      return {
        tries: 1,
        violations: resigned + (reported ? 0 : 1),
        note: `kept ${keep} of ${before.at(-1)!.size} leaves; ${resigned} checkpoint(s) re-signed over the removed tail; health ${health?.checks?.auditSignedHistory ?? "?"}`,
      };
    },
  },
];

// ── redirects and request bodies ────────────────────────────────────────────────────────────────────
/** callbackUrls a browser would follow off-site if a prefix check judged them (control characters, "\", …). */
const HOSTILE_CALLBACKS = [
  "/\t/evil.example",
  "/\n/evil.example",
  "/\r/evil.example",
  "/\t\\evil.example",
  "/\\evil.example",
  "\\\\evil.example",
  "//evil.example",
  "///evil.example",
  "/.//evil.example",
  "https://evil.example/queue",
  "https://127.0.0.1.evil.example/",
  "javascript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  " //evil.example",
];

/** Where a browser would land when it follows `location` from a page of `baseUrl` (the URL parser drops TAB/LF/CR). */
const landsOn = (location: string) =>
  URL.canParse(location, baseUrl) ? new URL(location, baseUrl).origin : "unparseable";

function openRedirectCase(): Case {
  return {
    name: "open redirect: hostile callbackUrls at sign-in, in next-auth's callback and sign-out",
    async run() {
      const ours = new URL(baseUrl!).origin;
      const who = member(US, "reviewer", 0);
      const session = await signIn(who.email, who.password);
      let tries = 0;
      const foreign: string[] = [];
      for (const target of HOSTILE_CALLBACKS) {
        // 1. Signed in, the sign-in page redirects on the server to its callbackUrl.
        const page = await http(`/sign-in?callbackUrl=${encodeURIComponent(target)}`, { cookies: session });
        const location = page.headers.get("location");
        tries++;
        if (page.status < 300 || page.status >= 400 || !location || landsOn(location) !== ours)
          foreign.push(`sign-in ${JSON.stringify(target)} → ${page.status} ${location}`);
        // 2. next-auth's credentials callback answers {url} for the client to follow.
        const csrf = await http("/api/auth/csrf");
        const jar = cookiesOf(csrf.headers).join("; ");
        const body = new URLSearchParams({
          csrfToken: String(csrf.json?.csrfToken),
          email: who.email,
          password: who.password,
          json: "true",
          callbackUrl: target,
        });
        const cb = await http("/api/auth/callback/credentials", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body,
          cookies: jar,
        });
        tries++;
        const url = typeof cb.json?.url === "string" ? cb.json.url : (cb.headers.get("location") ?? "");
        if (!url || landsOn(url) !== ours) foreign.push(`callback ${JSON.stringify(target)} → ${cb.status} ${url}`);
        // 3. Sign-out with a callbackUrl (next-auth's redirect callback again).
        const out = new URLSearchParams({ csrfToken: String(csrf.json?.csrfToken), json: "true", callbackUrl: target });
        const so = await http("/api/auth/signout", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: out,
          cookies: jar,
        });
        tries++;
        const soUrl = typeof so.json?.url === "string" ? so.json.url : (so.headers.get("location") ?? "");
        if (!soUrl || landsOn(soUrl) !== ours)
          foreign.push(`signout ${JSON.stringify(target)} → ${so.status} ${soUrl}`);
      }
      return {
        tries,
        violations: foreign.length,
        note: foreign.length ? foreign.slice(0, 3).join("; ") : "every redirect stayed on this origin",
      };
    },
  };
}

function unboundedBodyCase(): Case {
  return {
    name: "unbounded bodies: 64 MB chunked to next-auth, a staff JSON route and a server action",
    async run() {
      const TOTAL = 64 * 1024 * 1024;
      const who = member(US, "reviewer", 0);
      const session = await signIn(who.email, who.password);
      const origin = new URL(baseUrl!).origin;
      const targets: { name: string; path: string; headers: Record<string, string>; earlyAnswer: boolean }[] = [
        { name: "auth callback", path: "/api/auth/callback/credentials", headers: {}, earlyAnswer: true },
        { name: "auth sign-in", path: "/api/auth/signin/credentials", headers: {}, earlyAnswer: true },
        {
          name: "staff JSON (reject)",
          path: `/api/proposals/${randomUUID()}/reject`,
          headers: { cookie: session, origin, "content-type": "application/json" },
          earlyAnswer: true,
        },
        // Next.js lets the client finish sending a page request before proxy.ts's answer goes out (it keeps
        // only the first proxyClientMaxBodySize of it): the answer is checked, not how early it came.
        {
          name: "server action",
          path: "/sign-in",
          headers: { origin, "next-action": "0".repeat(42), "content-type": "text/plain;charset=UTF-8" },
          earlyAnswer: false,
        },
      ];
      const problems: string[] = [];
      // Four in parallel, as the report that found it did.
      await Promise.all(
        targets.map(async (t) => {
          try {
            const res = await postChunked(`${baseUrl}${t.path}`, TOTAL, {
              headers: t.headers,
              timeoutMs: REQUEST_TIMEOUT_MS * 4,
            });
            const code = (() => {
              try {
                return (JSON.parse(res.text) as { code?: string }).code;
              } catch {
                return undefined;
              }
            })();
            if (res.status !== 413 || code !== "invalid_arguments")
              problems.push(`${t.name}: ${res.status} ${res.text.slice(0, 80)}`);
            else if (t.earlyAnswer && res.bytesSent >= TOTAL)
              problems.push(`${t.name}: answered only after the whole body`);
          } catch (error) {
            problems.push(`${t.name}: ${error instanceof Error ? error.message : String(error)}`);
          }
        }),
      );
      const alive = (await http("/api/health")).status === 200;
      if (!alive) problems.push("the instance stopped answering");
      return {
        tries: targets.length,
        violations: problems.length,
        note: problems.length ? problems.join("; ") : "413 in the common shape, read no further than the cap",
      };
    },
  };
}

// ── witnesses and the Orders API (issue #34 findings 6 and 7) ──────────────────────────────────────────
function witnessReadBackCase(): Case {
  /** A local HTTP server on a free loopback port; `handle` answers, every request is counted. */
  async function localServer(
    handle: (path: string, res: import("node:http").ServerResponse) => void,
  ): Promise<{ url: string; hits: string[]; server: Server }> {
    const hits: string[] = [];
    const server = createServer((req, res) => {
      hits.push(req.url ?? "");
      req.resume();
      req.on("end", () => handle(req.url ?? "", res));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, server };
  }
  return {
    name: "witness SSRF: witnesses that redirect inside or answer a body; nothing followed, nothing read back",
    async run() {
      const MARK = `ATTACK-BODY-${randomUUID()}`;
      // Stands in for a loopback-only page: a followed redirect would reach it.
      const inside = await localServer((_path, res) => res.writeHead(200).end(`# HELP ${MARK} inside\n`));
      const witness = await localServer((path, res) => {
        if (path.startsWith("/to-inside/")) return res.writeHead(307, { location: `${inside.url}/secret` }).end(MARK);
        if (path.startsWith("/to-metrics/"))
          return res.writeHead(307, { location: `${baseUrl}/api/metrics` }).end(MARK);
        if (path.startsWith("/as-200/")) return res.writeHead(200).end(`# HELP ${MARK}\n`);
        res.writeHead(400).end(MARK);
      });
      const admin = await signIn(member(US, "admin").email, member(US, "admin").password);
      const names: string[] = [];
      const problems: string[] = [];
      try {
        for (const path of ["/to-inside/", "/to-metrics/", "/as-200/", "/error/"]) {
          const name = `atk-${randomBytes(4).toString("hex")}.example`;
          const vkey = vkeyOf(name, SIG_COSIGNATURE_V1, generateKeyPairSync("ed25519").publicKey);
          const added = await staffPost(admin, "/api/admin/witnesses", { name, vkey, url: `${witness.url}${path}` });
          if (added.status === 201) names.push(name);
          else if (added.status !== 400) problems.push(`adding ${path}: ${added.status}`);
        }
        if (names.length > 0) {
          // An audit event in the tenant's log: the worker's sequencer signs it and submits to the witnesses.
          const until = Date.now() + 60_000;
          let rows: { name: string; lastError: string | null; lastAttemptAt: string | null }[] = [];
          while (Date.now() < until) {
            await toolCall(US, "lookup_order", { order_id: "ORD-0000" }, { "x-trace-id": `attack-${randomUUID()}` });
            await new Promise((r) => setTimeout(r, 2_000));
            const list = await http("/api/admin/witnesses", { cookies: admin });
            rows = ((list.json?.witnesses ?? []) as typeof rows).filter((w) => names.includes(w.name));
            if (rows.length === names.length && rows.every((w) => w.lastAttemptAt)) break;
          }
          if (!rows.every((w) => w.lastAttemptAt)) problems.push("no submission was attempted within 60 s");
          const listed = JSON.stringify(await http("/api/admin/witnesses", { cookies: admin }).then((r) => r.json));
          if (listed.includes(MARK) || listed.includes("# HELP")) problems.push("an answer's body was read back");
          for (const w of rows) if (w.lastError && w.lastError.length > 80) problems.push(`long lastError ${w.name}`);
        }
        if (inside.hits.length > 0) problems.push(`a redirect was followed: ${inside.hits.join(", ")}`);
      } finally {
        if (names.length > 0)
          await db((c) => c.query(`DELETE FROM "AuditWitness" WHERE name = ANY($1::text[])`, [names]));
        for (const s of [inside.server, witness.server]) {
          s.closeAllConnections();
          s.close();
        }
      }
      return {
        tries: 4,
        violations: problems.length,
        note: problems.length
          ? problems.join("; ")
          : names.length
            ? "no redirect followed; lastError names the failure, no body"
            : "witness URLs refused at save (not demo mode)",
      };
    },
  };
}

function unstorableOrderValuesCase(): Case {
  return {
    name: "Orders API: values the database cannot hold → 400 invalid_arguments with problems, never 500",
    async run() {
      const admin = await signIn(member(US, "admin").email, member(US, "admin").password);
      const issued = await staffPost(admin, "/api/admin/integration-keys", {
        label: "attack",
        scopes: ["orders:write"],
      });
      if (issued.status !== 201) throw new Error(`issuing an integration key answered ${issued.status}`);
      const key = String(issued.json?.key);
      const body = () => ({
        customer: { id: `cus_atk_${randomBytes(4).toString("hex")}`, email: "atk@example.com", name: "Atk" },
        currency: "USD",
        total_minor: 1000,
        status: "paid",
        placed_at: "2026-11-30T10:00:00Z",
        items: [{ sku: "SKU-1", name: "Mug", quantity: 1, unit_minor: 1000 }],
        payments: [
          {
            provider: "manual",
            reference: `pay_atk_${randomBytes(6).toString("hex")}`,
            method: "card",
            captured_minor: 1000,
            holder: "Atk",
            display: "Visa •• 4242",
          },
        ],
        refunds: [{ reference: `re_atk_${randomBytes(6).toString("hex")}`, amount_minor: 10, status: "succeeded" }],
      });
      type B = ReturnType<typeof body>;
      const edges: [string, (b: B) => unknown][] = [
        ["money 2^31", (b) => ({ ...b, total_minor: 2 ** 31 })],
        ["capture 2^31", (b) => ({ ...b, payments: [{ ...b.payments[0]!, captured_minor: 2 ** 31 }] })],
        [
          "captures summing over 2^31-1",
          (b) => ({
            ...b,
            payments: [0, 1].map((i) => ({
              ...b.payments[0]!,
              reference: `${b.payments[0]!.reference}${i}`,
              captured_minor: 2 ** 30 + 1,
            })),
            refunds: [],
          }),
        ],
        ["refund 2^31", (b) => ({ ...b, refunds: [{ ...b.refunds[0]!, amount_minor: 2 ** 31 }] })],
        ["item price 2^31", (b) => ({ ...b, items: [{ ...b.items[0]!, unit_minor: 2 ** 31 }] })],
        ["negative", (b) => ({ ...b, total_minor: -1 })],
        ["fractional", (b) => ({ ...b, total_minor: 0.5 })],
        ["year 0000", (b) => ({ ...b, placed_at: "0000-01-01T00:00:00Z" })],
        ["year 10000", (b) => ({ ...b, placed_at: "10000-01-01T00:00:00Z" })],
        ["30 February", (b) => ({ ...b, placed_at: "2026-02-30T00:00:00Z" })],
        ["refund in year 0000", (b) => ({ ...b, refunds: [{ ...b.refunds[0]!, created_at: "0000-01-01T00:00:00Z" }] })],
        ["NUL in the name", (b) => ({ ...b, customer: { ...b.customer, name: "A\u0000" } })],
        ["NUL in an item", (b) => ({ ...b, items: [{ ...b.items[0]!, name: "M\u0000" }] })],
        ["NUL in the holder", (b) => ({ ...b, payments: [{ ...b.payments[0]!, holder: "A\u0000" }] })],
        ["lone surrogate in the name", (b) => ({ ...b, customer: { ...b.customer, name: "A\uD800" } })],
        ["lone surrogate in a sku", (b) => ({ ...b, items: [{ ...b.items[0]!, sku: "S\uDC00" }] })],
        ["a name over its length", (b) => ({ ...b, customer: { ...b.customer, name: "x".repeat(201) } })],
        ["no payment", (b) => ({ ...b, payments: [] })],
        ["501 items", (b) => ({ ...b, items: Array.from({ length: 501 }, () => b.items[0]) })],
        ["an unknown currency", (b) => ({ ...b, currency: "XXX" })],
      ];
      const problems: string[] = [];
      try {
        for (const [name, make] of edges) {
          const number = `ATK-EDGE-${randomBytes(5).toString("hex")}`;
          const res = await http(`/api/v1/orders/${number}`, {
            method: "PUT",
            headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
            body: JSON.stringify(make(body())),
          });
          if (res.status !== 400 || res.json?.code !== "invalid_arguments" || !Array.isArray(res.json?.problems))
            problems.push(`${name}: ${res.status} ${String(res.json?.code)}`);
        }
      } finally {
        await http(`/api/admin/integration-keys/${String(issued.json?.id)}`, {
          method: "DELETE",
          cookies: admin,
          headers: { origin: baseUrl! },
        });
      }
      return {
        tries: edges.length,
        violations: problems.length,
        note: problems.length ? problems.slice(0, 4).join("; ") : "every edge case refused at its path",
      };
    },
  };
}

// ── whose payment it is (issue #34 findings 1, 2, 3, 8; docs/systems-of-record.md "Whose payment it is") ──
const sandbox = () => sandboxControl(sandboxUrl!, demoPaymentProvider.controlToken);
const newPi = () => `pi_atk_${randomUUID().replace(/-/g, "").slice(0, 20)}`;
const newNumber = () => `ATK-PAY-${randomUUID().slice(0, 8).toUpperCase()}`;

/** The Orders API as the tenant's shop backend, for its first demo customer (name and email as stored: unchanged). */
async function pushOrder(
  slug: string,
  number: string,
  pay: { reference: string; provider: "stripe" | "manual"; capturedMinor: number },
): Promise<Res> {
  const customer = tenantOf(slug).customers[0]!.id;
  const stored = await db(
    async (c) =>
      (
        await c.query<{ name: string; email: string }>(
          `SELECT c.name, c.email FROM "Customer" c JOIN "Tenant" t ON t.id = c."tenantId" WHERE c.id = $1 AND t.slug = $2`,
          [customer, slug],
        )
      ).rows[0]!,
  );
  return http(`/api/v1/orders/${encodeURIComponent(number)}`, {
    method: "PUT",
    headers: { "content-type": "application/json", authorization: `Bearer ${tenantOf(slug).integrationKey}` },
    body: JSON.stringify({
      customer: { id: customer, name: stored.name, email: stored.email },
      currency: tenantOf(slug).currency,
      total_minor: pay.capturedMinor,
      status: "paid",
      placed_at: new Date().toISOString(),
      payments: [
        {
          provider: pay.provider,
          reference: pay.reference,
          method: "card",
          captured_minor: pay.capturedMinor,
          holder: stored.name,
          display: "Visa •••• 4242",
        },
      ],
    }),
  });
}
const paymentRefOf = (number: string) =>
  db(
    async (c) =>
      (
        await c.query<{ ref: string }>(
          `SELECT y."providerPaymentRef" AS ref FROM "Payment" y JOIN "Order" o ON o.id = y."orderId" WHERE o.number = $1`,
          [number],
        )
      ).rows[0]!.ref,
  );
const proposalStatusOf = (id: string) =>
  db(
    async (c) =>
      (
        await c.query<{ status: string; reason: string | null }>(
          `SELECT status::text AS status, "invalidationReason" AS reason FROM "Proposal" WHERE id = $1`,
          [id],
        )
      ).rows[0]!,
  );
async function within<T>(ms: number, read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (done(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 250));
  }
}

function foreignPaymentCase(): Case {
  return {
    name: "a payment intent another tenant holds: tienda-es's shop pushes shop-us's pi_… (as stripe, and manual → stripe)",
    async run() {
      const victim = await fresh(US, 129_900);
      const pi = await paymentRefOf(victim);
      const problems: string[] = [];
      const leaks = (r: Res) => [US, victim, "USD"].some((x) => JSON.stringify(r.json ?? {}).includes(x));
      // 1. Straight: the victim's payment intent as tienda-es's stripe payment.
      const direct = await pushOrder(ES, newNumber(), { reference: pi, provider: "stripe", capturedMinor: 129_900 });
      if (direct.status !== 400) problems.push(`stripe push answered ${direct.status}`);
      if (leaks(direct)) problems.push("the refusal names the other tenant's data");
      // 2. Around the check: as the shop's own (manual) number first, then switched to stripe.
      const number = newNumber();
      const manual = await pushOrder(ES, number, { reference: pi, provider: "manual", capturedMinor: 129_900 });
      const switched = await pushOrder(ES, number, { reference: pi, provider: "stripe", capturedMinor: 129_900 });
      if (manual.status === 201 && switched.status !== 400)
        problems.push(`manual → stripe answered ${switched.status}`);
      const held = await db(
        async (c) =>
          (
            await c.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM "Payment" y JOIN "Tenant" t ON t.id = y."tenantId" WHERE t.slug = $1 AND y."providerPaymentRef" = $2 AND y.provider = 'stripe'`,
              [ES, pi],
            )
          ).rows[0]!.n,
      );
      if (held > 0) problems.push("tienda-es holds shop-us's payment intent as a stripe payment");
      return {
        tries: 2,
        violations: problems.length,
        note: problems.length
          ? problems.join("; ")
          : "refused at $.payments[0].reference (not available), naming no one",
      };
    },
  };
}

function providerCurrencyCase(): Case {
  return {
    name: "a payment the provider holds in another currency or capture: prepare_refund derives nothing from it",
    async run() {
      const problems: string[] = [];
      for (const pi of [
        { currency: "gbp", amount: 10_000, pushed: 10_000 },
        { currency: tenantOf(ES).currency.toLowerCase(), amount: 9_000, pushed: 10_000 },
      ]) {
        const id = newPi();
        await sandbox().createPaymentIntent({ id, amount: pi.amount, currency: pi.currency });
        const number = newNumber();
        const pushed = await pushOrder(ES, number, { reference: id, provider: "stripe", capturedMinor: pi.pushed });
        if (pushed.status !== 201) throw new Error(`push of ${number}: ${pushed.status}`);
        const a = await toolCall(ES, "prepare_refund", { order_id: number, reason: "damaged_item" });
        if (a.code !== "permission_denied")
          problems.push(`${pi.currency.toUpperCase()} ${pi.amount} at the provider, ${pi.pushed} pushed: ${a.code}`);
      }
      return {
        tries: 2,
        violations: problems.length,
        note: problems.length ? problems.join("; ") : "permission_denied (payment_mismatch), no proposal",
      };
    },
  };
}

function webhookPlacementCase(): Case {
  return {
    name: "another tenant's row with shop-us's reference: shop-us's dispute and outside refund still reach shop-us",
    async run() {
      const p = await prepared(US, 20_000);
      const pi = await paymentRefOf(p.order);
      // tienda-es takes the same reference as its own (manual) number: allowed, and must change nothing for shop-us.
      const taken = await pushOrder(ES, newNumber(), { reference: pi, provider: "manual", capturedMinor: 20_000 });
      const problems: string[] = [];
      if (taken.status !== 201) problems.push(`the manual push answered ${taken.status}`);
      await sandbox().openDispute({ paymentIntent: pi, reason: "fraudulent" });
      const after = await within(
        20_000,
        () => proposalStatusOf(p.id),
        (r) => r.status !== "pending_approval",
      );
      if (after.status !== "invalidated")
        problems.push(`shop-us's proposal is still ${after.status} after the dispute`);
      const made = await sandbox().refundElsewhere({ paymentIntent: pi, amount: 1_000 });
      const tenants = await within(
        20_000,
        () =>
          db(async (c) =>
            (
              await c.query<{ slug: string }>(
                `SELECT t.slug FROM "Refund" r JOIN "Tenant" t ON t.id = r."tenantId" WHERE r."providerRefundId" = $1`,
                [made.id],
              )
            ).rows.map((r) => r.slug),
          ),
        (rows) => rows.length > 0,
      );
      if (tenants.join() !== US) problems.push(`the outside refund reached [${tenants.join()}], not shop-us's ledger`);
      return {
        tries: 2,
        violations: problems.length,
        note: problems.length
          ? problems.join("; ")
          : "dispute invalidated the proposal; the refund entered shop-us's ledger",
      };
    },
  };
}

function providerSwitchCase(): Case {
  return {
    name: "a payment switched from stripe to manual under an open proposal",
    async run() {
      const id = newPi();
      await sandbox().createPaymentIntent({ id, amount: 7_000, currency: tenantOf(ES).currency.toLowerCase() });
      const number = newNumber();
      const pushed = await pushOrder(ES, number, { reference: id, provider: "stripe", capturedMinor: 7_000 });
      if (pushed.status !== 201) throw new Error(`push of ${number}: ${pushed.status}`);
      const a = await toolCall(ES, "prepare_refund", { order_id: number, reason: "damaged_item" });
      if (a.code !== "approval_required") throw new Error(`prepare_refund of ${number}: ${a.code}`);
      await pushOrder(ES, number, { reference: id, provider: "manual", capturedMinor: 7_000 });
      const after = await proposalStatusOf(String(a.result.proposal_id));
      const ok = after.status === "invalidated";
      return {
        tries: 1,
        violations: ok ? 0 : 1,
        note: ok
          ? `invalidated (${after.reason})`
          : `the proposal stayed ${after.status}: approvable without a live read`,
      };
    },
  };
}

function lockOrderCase(): Case {
  return {
    name: "deadlocks: lower the amount vs an Orders API change; prepare vs re-prepare of a just-expired proposal",
    async run() {
      const ROUNDS = 15;
      const slug = US;
      const problems: string[] = [];
      const reviewer = await signIn(member(slug, "reviewer", 0).email, member(slug, "reviewer", 0).password);
      // An integration key for the shop's Orders API, stored as the admin page would store it (its SHA-256).
      const key = `igk_${randomBytes(32).toString("base64url")}`;
      await db((c) =>
        c.query(
          `INSERT INTO "IntegrationKey" ("id", "tenantId", "name", "keyPrefix", "keyHash", "scopes")
           SELECT gen_random_uuid(), id, 'attack: lock order', left($2, 8), encode(sha256(convert_to($2, 'UTF8')), 'hex'), ARRAY['orders:write']
             FROM "Tenant" WHERE slug = $1`,
          [slug, key],
        ),
      );
      let tries = 0;
      const noServerError = (what: string, status: number) => {
        tries++;
        if (status >= 500) problems.push(`${what}: ${status}`);
      };
      try {
        // 1. A reviewer lowers the amount while the shop cancels the order (which invalidates the proposal).
        for (let r = 0; r < ROUNDS; r++) {
          const p = await prepared(slug, 5_000);
          const row = await db(
            async (c) =>
              (
                await c.query<{ customerId: string; email: string; name: string; currency: string; ref: string }>(
                  `SELECT o."customerId", cu.email, cu.name, o.currency, pay."providerPaymentRef" AS ref
                     FROM "Order" o JOIN "Customer" cu ON cu.id = o."customerId" AND cu."tenantId" = o."tenantId" JOIN "Payment" pay ON pay."orderId" = o.id
                    WHERE o.number = $1`,
                  [p.order],
                )
              ).rows[0]!,
          );
          const body = {
            customer: { id: row.customerId, email: row.email, name: row.name },
            currency: row.currency.trim(),
            total_minor: 5_000,
            status: "canceled",
            placed_at: new Date().toISOString(),
            items: [{ sku: "ATK-1", name: "Attack item", quantity: 1, unit_minor: 5_000 }],
            payments: [
              {
                provider: "stripe",
                reference: row.ref,
                method: "card",
                captured_minor: 5_000,
                holder: row.name,
                display: "Visa •••• 4242",
              },
            ],
            refunds: [],
          };
          const [edit, put] = await Promise.all([
            staffPost(reviewer, `/api/proposals/${p.id}/edit`, { hash: p.hash, amountMinor: 1_000 }),
            http(`/api/v1/orders/${encodeURIComponent(p.order)}`, {
              method: "PUT",
              headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
              body: JSON.stringify(body),
            }),
          ]);
          noServerError("edit", edit.status);
          noServerError("orders api", put.status);
        }
        // 2. The agent prepares again while a reviewer re-prepares the same just-expired proposal.
        for (let r = 0; r < ROUNDS; r++) {
          const p = await prepared(slug, 5_000);
          await db((c) =>
            c.query(`UPDATE "Proposal" SET "expiresAt" = now() - interval '1 second' WHERE id = $1`, [p.id]),
          );
          const [agent, staff] = await Promise.all([
            toolCall(
              slug,
              "prepare_refund",
              { order_id: p.order, reason: "damaged_item" },
              { "x-trace-id": `attack-${randomUUID()}` },
            ),
            staffPost(reviewer, `/api/proposals/${p.id}/reprepare`, {}),
          ]);
          noServerError("prepare", agent.status);
          if (agent.code === "internal_error") problems.push("prepare: internal_error");
          noServerError("re-prepare", staff.status);
          const successors = await db(
            async (c) =>
              (
                await c.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Proposal" WHERE "supersedesId" = $1`, [
                  p.id,
                ])
              ).rows[0]!.n,
          );
          if (successors !== 1) problems.push(`re-prepare: ${successors} successors`);
        }
      } finally {
        await db((c) =>
          c.query(
            `UPDATE "IntegrationKey" SET "revokedAt" = now() WHERE "keyHash" = encode(sha256(convert_to($1, 'UTF8')), 'hex')`,
            [key],
          ),
        );
      }
      return {
        tries,
        violations: problems.length,
        note: problems.length ? problems.slice(0, 3).join("; ") : "no 500, no internal_error, one successor each",
      };
    },
  };
}

function hashedDisplayCase(): Case {
  return {
    name: "what the reviewer reads altered behind the hash with the app's database role, then approved",
    async run() {
      const who = member(US, "reviewer", 0);
      const cookies = await signIn(who.email, who.password);
      // The finding's replay: the dialog would say "Refund … to IBAN DE89 •••• 0000 (attacker)"; and the order as
      // the reviewer reads it (hash v4 binds both).
      const tampers = [
        `"recipientDisplay" = 'IBAN DE89 •••• 0000 (attacker)'`,
        `"customerName" = 'Someone Else'`,
        `"orderNumber" = 'ORD-ATTACKER'`,
      ];
      const problems: string[] = [];
      let asApp = true;
      for (const set of tampers) {
        const p = await prepared(US, 1_874);
        await db(async (c) => {
          // The runtime role the app connects as (scripts/lib/app-role.ts); as the owner where it cannot be assumed.
          try {
            await c.query('SET ROLE "app_runtime"');
          } catch {
            asApp = false;
          }
          await c.query(`UPDATE "Proposal" SET ${set} WHERE id = $1`, [p.id]);
          if (asApp) await c.query("RESET ROLE");
        });
        const res = await staffPost(cookies, `/api/proposals/${p.id}/approve`, { hash: p.hash });
        const row = await db(
          async (c) =>
            (
              await c.query<{ status: string; approvals: number }>(
                `SELECT status::text AS status, (SELECT count(*)::int FROM "Approval" a WHERE a."proposalId" = p.id) AS approvals
                   FROM "Proposal" p WHERE p.id = $1`,
                [p.id],
              )
            ).rows[0]!,
        );
        if (res.status < 400 || row.approvals > 0 || row.status !== "invalidated")
          problems.push(`${set}: ${res.status}, ${row.status}, ${row.approvals} approval(s)`);
      }
      return {
        tries: tampers.length,
        violations: problems.length,
        note: problems.length
          ? problems.join("; ")
          : `refused and invalidated (stored hash mismatch)${asApp ? "" : "; altered as the owner: SET ROLE app_runtime was not allowed"}`,
      };
    },
  };
}

// ── run ─────────────────────────────────────────────────────────────────────────────────────────────
async function main(): Promise<number> {
  if (baseUrl) {
    assertLoopback(baseUrl);
    if (!databaseUrl || !sandboxUrl) {
      console.error("attack: with --base-url, pass --database-url and --sandbox-url of that instance too.");
      return 2;
    }
    assertLoopback(sandboxUrl);
    await waitHealthy(baseUrl, 10_000);
  } else {
    if (!existsSync(".next/BUILD_ID")) console.log("(no production build yet: the instance builds it first)");
    await startOwnInstance();
  }
  creds = await demoCredentials();
  if (!demoTenants.length) throw new Error("no demo tenants");
  // The cases prepare many proposals for one customer: give the gateway's window budgets room (restored at the end).
  const saved = await Promise.all([US, ES].map(async (slug) => [slug, await budgetsOf(slug)] as const));
  for (const [slug] of saved) await setBudgets(slug, ROOMY);
  const rows: { name: string; tries: number; violations: number; note: string }[] = [];
  // --only TEXT: run only the cases whose name contains TEXT; several texts separated by "|"
  // (e.g. --only "one admin|open redirect").
  const only = flag("only")?.split("|");
  for (const c of only ? cases.filter((k) => only.some((o) => k.name.includes(o))) : cases) {
    if (Date.now() > RUN_DEADLINE) {
      rows.push({ name: c.name, tries: 0, violations: 0, note: "not run: time budget spent" });
      continue;
    }
    process.stdout.write(`… ${c.name}\n`);
    try {
      rows.push({ name: c.name, ...(await c.run()) });
    } catch (error) {
      rows.push({
        name: c.name,
        tries: 0,
        violations: 1,
        note: `case failed: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  }
  for (const [slug, b] of saved) {
    if (b) await setBudgets(slug, b);
    else
      await db((c) =>
        c.query(`DELETE FROM "AgentBudgetPolicy" WHERE "tenantId" = (SELECT id FROM "Tenant" WHERE slug = $1)`, [slug]),
      );
  }
  const width = Math.max(...rows.map((r) => r.name.length));
  console.log(`\n${"case".padEnd(width)}  tries  violations  note`);
  for (const r of rows)
    console.log(
      `${r.name.padEnd(width)}  ${String(r.tries).padStart(5)}  ${String(r.violations).padStart(10)}  ${r.note}`,
    );
  const total = rows.reduce((s, r) => s + r.violations, 0);
  console.log(`\n${total === 0 ? "no violations" : `${total} violation(s)`}`);
  return total === 0 ? 0 : 1;
}

let code = 1;
try {
  code = await main();
} catch (error) {
  console.error(`attack: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await stopOwnInstance();
}
process.exit(code);
