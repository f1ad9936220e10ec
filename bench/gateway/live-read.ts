// `npm run bench:gateway -- --live-read`: what reading the payment provider live at prepare costs
// (docs/systems-of-record.md "Stripe as the truth"). The real sandbox provider process (scripts/provider-sandbox.ts,
// its own database on the bench's PostgreSQL) holds every bench order's payment intent in tienda-es's own sandbox
// account; tienda-es has its own provider connection (its key sealed under SECRETS_KEY, as Admin stores it), so the
// live side does exactly what production does: read the connection row, open it, read the payment intent and its
// refunds at the provider. Also a bare round trip: the same two provider requests, at once, from the bench process.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { withPgClient } from "../../lib/server/db/pg-client";
import { parseSecretsKey, sealSecret, secretAad, secretHint } from "../../lib/domain/secret-box";
import { sandboxControl } from "../../provider-sandbox/control-client";
import { demoUuid } from "../../scripts/lib/demo-data";
import { TENANT } from "./shared";

export type LiveReadSetup = { sandboxUrl: string; apiKey: string; secretsKey: string; stop: () => Promise<void> };

/** Starts the sandbox process, registers tienda-es's account with `count` payment intents (`pi_bench_<order>`), stores tienda-es's connection. */
export async function setUpLiveRead(databaseUrl: string, count: number, prefix = "BENCH"): Promise<LiveReadSetup> {
  const controlToken = `ctl_${randomBytes(12).toString("hex")}`;
  const apiKey = `rk_test_bench_${randomBytes(16).toString("hex")}`;
  const sandboxDb = databaseUrl.replace(/\/[^/?]+(\?.*)?$/, "/bench_provider_sandbox");
  const child = spawn(
    process.execPath,
    [
      "--conditions=react-server",
      "--import",
      "tsx",
      join("scripts", "provider-sandbox.ts"),
      "--port",
      "0",
      "--database-url",
      sandboxDb,
      "--api-key",
      `sk_test_bench_default_${randomBytes(8).toString("hex")}`,
      "--control-token",
      controlToken,
    ],
    { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, DATABASE_URL: "" } },
  );
  const sandboxUrl = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`sandbox did not start: ${out}`)), 60_000);
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once("exit", (code) => reject(new Error(`sandbox exited (${code}): ${out}`)));
  });
  const control = sandboxControl(sandboxUrl, controlToken);
  await control.registerAccount({ id: "acct_bench_tienda", apiKeys: [apiKey] });
  await withPgClient(sandboxDb, (sandbox) =>
    sandbox.query(
      `INSERT INTO payment_intents (id, account, amount, currency, amount_refunded, charge, created)
     SELECT 'pi_bench_' || $2 || '-' || lpad(i::text, 6, '0'), 'acct_bench_tienda', 1000 + i, 'eur', 0, 'ch_bench_' || i, extract(epoch FROM now())::bigint
       FROM generate_series(0, $1 - 1) AS i`,
      [count, prefix],
    ),
  );

  const secretsKey = randomBytes(32).toString("base64");
  const key = parseSecretsKey(secretsKey);
  const tenantId = demoUuid(`tenant:${TENANT}`);
  await withPgClient(databaseUrl, (app) =>
    app.query(
      `INSERT INTO "ProviderConnection" ("tenantId", "apiKeyHint", "apiKeySealed", "webhookSecretSealed", "keyId", "updatedAt") VALUES ($1::uuid, $2, $3, $4, $5, now())`,
      [
        tenantId,
        secretHint(apiKey),
        sealSecret(key, apiKey, secretAad(tenantId, "apiKey")).sealed,
        sealSecret(key, `whsec_bench_${randomBytes(16).toString("hex")}`, secretAad(tenantId, "webhookSecret")).sealed,
        key.id,
      ],
    ),
  );
  return {
    sandboxUrl,
    apiKey,
    secretsKey,
    stop: () => stopChild(child),
  };
}

/**
 * The provider's share of a live read, bare: the payment intent and its refund list asked at once (what the
 * adapter's readPayment sends), one pair at a time from this process; milliseconds per pair, sorted.
 */
export async function bareRoundTrips(sandboxUrl: string, apiKey: string, paymentIntents: string[]): Promise<number[]> {
  const headers = { authorization: `Bearer ${apiKey}` };
  const times: number[] = [];
  for (const pi of paymentIntents) {
    const t0 = performance.now();
    const answers = await Promise.all([
      fetch(`${sandboxUrl}/v1/payment_intents/${pi}`, { headers }),
      fetch(`${sandboxUrl}/v1/refunds?payment_intent=${pi}&limit=100`, { headers }),
    ]);
    for (const a of answers) {
      if (!a.ok) throw new Error(`bench: sandbox answered ${a.status} ${await a.text()}`);
      await a.arrayBuffer();
    }
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b);
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}
