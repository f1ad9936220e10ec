// Accounts of the sandbox provider, as Stripe has them: every secret key belongs to one account, and an account
// sees only what was made with its keys (payment intents, refunds, idempotency keys): another account's object is
// `resource_missing`, exactly as an unknown id. Each account has its own webhook endpoint and signing secret, so
// one sandbox can stand for several shops' Stripe accounts at once (one per tenant).
//
// The default account (`acct_default`) is the process's own: its keys are the `--api-key` flags (kept in memory,
// so a key of an earlier run is refused) and its endpoint the `--webhook-url` / `--webhook-secret` flags. Other
// accounts are registered through the control endpoint and kept in the sandbox's database (keys as SHA-256).
import { createHash } from "node:crypto";
import type pg from "pg";
import { z } from "zod";
import { newId } from "./ids";
import { nowUnix } from "./objects";
import { inTransaction } from "./store";

export const DEFAULT_ACCOUNT = "acct_default";

export const keyDigest = (key: string) => createHash("sha256").update(key).digest("hex");

/** The account of a secret key that is not one of the default account's, or null (an unknown key). */
export async function accountOfKey(pool: pg.Pool, key: string): Promise<string | null> {
  const found = await pool.query<{ account: string }>("SELECT account FROM account_keys WHERE key_sha256 = $1", [
    keyDigest(key),
  ]);
  return found.rows[0]?.account ?? null;
}

/** At start: the default account's endpoint is whatever the flags say now (none → it records no events). */
export async function ensureDefaultAccount(
  pool: pg.Pool,
  webhook: { url: string; secret: string } | null,
): Promise<void> {
  await pool.query(
    `INSERT INTO accounts (id, webhook_url, webhook_secret, created) VALUES ($1, $2, $3, $4)
     ON CONFLICT (id) DO UPDATE SET webhook_url = EXCLUDED.webhook_url, webhook_secret = EXCLUDED.webhook_secret`,
    [DEFAULT_ACCOUNT, webhook?.url ?? null, webhook?.secret ?? null, nowUnix()],
  );
}

export const registerAccountInput = z
  .strictObject({
    /** Without it a new account is made; with it, the account is created or its keys and endpoint replaced. */
    id: z
      .string()
      .regex(/^acct_[A-Za-z0-9_]{1,64}$/)
      .refine(
        (id) => id !== DEFAULT_ACCOUNT,
        "acct_default is the process's own account (its keys are the --api-key flags)",
      )
      .optional(),
    apiKeys: z
      .array(
        z
          .string()
          .regex(/^(sk|rk)_(test|live)_[A-Za-z0-9_]{8,200}$/, "a secret or restricted key (sk_test_…, rk_test_…)"),
      )
      .min(1)
      .max(10),
    webhookUrl: z.url({ protocol: /^https?$/ }).optional(),
    webhookSecret: z
      .string()
      .regex(/^whsec_[A-Za-z0-9_\-+/=]{8,200}$/)
      .optional(),
  })
  .refine((v) => !v.webhookUrl === !v.webhookSecret, {
    message: "webhookUrl and webhookSecret go together",
    path: ["webhookSecret"],
  });
export type RegisterAccountInput = z.input<typeof registerAccountInput>;

export type AccountView = { id: string; webhookUrl: string | null; keys: number };

export type RegisterOutcome = { ok: true; account: AccountView } | { ok: false; status: number; message: string };

/**
 * Creates an account (or replaces the keys and endpoint of one) in one transaction. A key that is one of the
 * default account's, or already another account's, is refused (409): a key opens exactly one account.
 */
export async function registerAccount(
  pool: pg.Pool,
  defaultKeys: readonly string[],
  input: z.output<typeof registerAccountInput>,
): Promise<RegisterOutcome> {
  if (input.apiKeys.some((k) => defaultKeys.includes(k)))
    return { ok: false, status: 409, message: "an API key is already the default account's" };
  const id = input.id ?? newId("acct", 16);
  return inTransaction(pool, async (client, rollback) => {
    await client.query(
      `INSERT INTO accounts (id, webhook_url, webhook_secret, created) VALUES ($1, $2, $3, $4)
       ON CONFLICT (id) DO UPDATE SET webhook_url = EXCLUDED.webhook_url, webhook_secret = EXCLUDED.webhook_secret`,
      [id, input.webhookUrl ?? null, input.webhookSecret ?? null, nowUnix()],
    );
    await client.query("DELETE FROM account_keys WHERE account = $1", [id]);
    const digests = [...new Set(input.apiKeys.map(keyDigest))];
    const inserted = await client.query(
      "INSERT INTO account_keys (key_sha256, account) SELECT unnest($1::text[]), $2 ON CONFLICT (key_sha256) DO NOTHING",
      [digests, id],
    );
    if (inserted.rowCount !== digests.length) {
      rollback();
      return { ok: false as const, status: 409, message: "an API key already belongs to another account" };
    }
    return { ok: true as const, account: { id, webhookUrl: input.webhookUrl ?? null, keys: digests.length } };
  });
}

export async function listAccounts(pool: pg.Pool): Promise<AccountView[]> {
  const rows = await pool.query<{ id: string; webhook_url: string | null; keys: string }>(
    `SELECT a.id, a.webhook_url, (SELECT count(*) FROM account_keys k WHERE k.account = a.id) AS keys FROM accounts a ORDER BY a.created, a.id`,
  );
  return rows.rows.map((r) => ({ id: r.id, webhookUrl: r.webhook_url, keys: Number(r.keys) }));
}
