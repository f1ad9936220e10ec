// The e2e server's payment sandbox (provider-sandbox/, started by scripts/start.ts) as a browser spec drives it: its
// control endpoint (faults, counters), and what a spec needs to hold an execution in doubt until ops press "Check
// now" — the provider's webhook kept from telling the app, and the reconciler's own next look postponed. For specs
// of the serial project only: both change what every other spec's refunds would meet.
import { readFileSync } from "node:fs";
import { withPgClient } from "../../lib/server/db/pg-client";
import type pg from "pg";
import { demoPaymentProvider } from "../../lib/config/demo-payment-provider";
import { sandboxControl } from "../../provider-sandbox/control-client";
import { withDb } from "./db";

/** The sandbox's control endpoint (its URL as the server's start script wrote it). */
export const paymentSandbox = () =>
  sandboxControl(readFileSync(".data/e2e-sandbox-url", "utf8").trim(), demoPaymentProvider.controlToken);

/** How many refunds the sandbox holds for a payment intent (the provider's own record). */
export async function refundsAtProvider(paymentIntent: string): Promise<number> {
  return (await paymentSandbox().counters()).paymentIntents[paymentIntent]?.refunds ?? 0;
}

/** The sandbox's own database, beside the app's on the e2e server's PostgreSQL. */
async function withSandboxDb<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const url = new URL(readFileSync(".data/e2e-database-url", "utf8").trim());
  url.pathname = `/${demoPaymentProvider.database}`;
  return withPgClient(url.toString(), fn);
}

/**
 * Runs `fn` while the sandbox's default account (the one the e2e server's refunds go to) has no webhook endpoint: the
 * sandbox records no event for what happens meanwhile (provider-sandbox/refunds.ts insertEvent), so nothing it does
 * then reaches the app's webhook — as when a provider's notification is lost. Without this, a refund the provider
 * committed settles its execution by `refund.created` within a second, and it is never in doubt for long.
 * The endpoint is put back afterwards (a restart of the sandbox puts it back too).
 */
export async function withoutProviderWebhooks<T>(fn: () => Promise<T>): Promise<T> {
  const url = await withSandboxDb(async (c) => {
    const { rows } = await c.query<{ webhook_url: string | null }>(
      "SELECT webhook_url FROM accounts WHERE id = 'acct_default'",
    );
    if (!rows[0]?.webhook_url) throw new Error("the sandbox's default account has no webhook endpoint to pause");
    await c.query("UPDATE accounts SET webhook_url = NULL WHERE id = 'acct_default'");
    return rows[0].webhook_url;
  });
  try {
    return await fn();
  } finally {
    await withSandboxDb((c) => c.query("UPDATE accounts SET webhook_url = $1 WHERE id = 'acct_default'", [url]));
  }
}

/**
 * Moves the reconciler's next look at an execution in doubt an hour ahead (its waiting `reconcile:<id>` job, which
 * the worker schedules a few seconds after an unknown outcome), so it stays in doubt until ops press "Check now"
 * (which moves that same job to now). Throws when that job has run already or is not there.
 */
export async function postponeReconciliation(executionId: string): Promise<void> {
  const { rowCount } = await withDb((c) =>
    c.query(
      `UPDATE graphile_worker._private_jobs SET run_at = now() + interval '1 hour'
        WHERE key = $1 AND attempts = 0 AND locked_at IS NULL`,
      [`reconcile:${executionId}`],
    ),
  );
  if (rowCount !== 1) throw new Error(`no waiting reconcile job for execution ${executionId} (ran already?)`);
}
