import "server-only";
import { openSecret, secretAad, SecretBoxError } from "@/lib/domain/secret-box";
import { db } from "@/lib/server/db/client";
import type { Sql } from "@/lib/server/db/sql";
import { paymentProviderConfig, secretsKeys } from "@/lib/server/env";
import { log } from "@/lib/server/log";
import { tracedProvider } from "@/lib/server/telemetry/traced-provider";
import type { PaymentProvider } from "./payment-provider";
import { createStripePaymentProvider } from "./stripe-provider";

// The application's payment providers. This is the only payment code path: the execution worker, the
// reconciler, the live reads and the provider webhook routes all take their provider from here.
// - `paymentProviderFor(tenantId)`: the tenant's own connection (Admin → Payment provider; its key and
//   webhook secret sealed under SECRETS_KEY in ProviderConnection), else the process-wide default.
// - `getPaymentProvider()`: the process-wide default (PAYMENT_PROVIDER_*), e.g. for readiness.
// A tenant's connection reaches the same place as the default (PAYMENT_PROVIDER_URL, or Stripe itself):
// an admin sets credentials, never where they are sent.

let instance: PaymentProvider | null = null;
/** Per tenant: the provider built from the connection's `version` (a change makes every process rebuild it). */
const tenants = new Map<string, { version: number; keyId: string; provider: PaymentProvider }>();

const onWarning = (message: string, details: Record<string, unknown>) =>
  log.error({ ...details, component: "payment-provider" }, message);

export function getPaymentProvider(): PaymentProvider {
  instance ??= tracedProvider(createStripePaymentProvider({ ...paymentProviderConfig(), onWarning }), "stripe");
  return instance;
}

/**
 * A stored connection that cannot be opened (SECRETS_KEY missing or rotated away, a row of another tenant, a
 * changed ciphertext). The tenant's payments then fail closed: never the default credentials instead.
 */
export class ProviderConnectionUnusable extends Error {
  constructor(
    readonly tenantId: string,
    reason: string,
  ) {
    super(`the payment provider connection of tenant ${tenantId} cannot be opened: ${reason}`);
    this.name = "ProviderConnectionUnusable";
  }
}

/** The tenant's credentials in clear, or null when it has no connection. Throws ProviderConnectionUnusable. */
export function openConnection(row: {
  tenantId: string;
  keyId: string;
  apiKeySealed: string;
  webhookSecretSealed: string;
}): {
  apiKey: string;
  webhookSecret: string;
} {
  const { current, previous } = secretsKeys();
  const keys = [current, previous].filter((k) => k !== null);
  if (keys.length === 0) throw new ProviderConnectionUnusable(row.tenantId, "SECRETS_KEY is not set");
  try {
    return {
      apiKey: openSecret(keys, { keyId: row.keyId, sealed: row.apiKeySealed }, secretAad(row.tenantId, "apiKey")),
      webhookSecret: openSecret(
        keys,
        { keyId: row.keyId, sealed: row.webhookSecretSealed },
        secretAad(row.tenantId, "webhookSecret"),
      ),
    };
  } catch (error) {
    if (error instanceof SecretBoxError) throw new ProviderConnectionUnusable(row.tenantId, error.message);
    throw error;
  }
}

/** A provider with these credentials, sent where the process-wide default goes. */
export function providerWithCredentials(credentials: { apiKey: string; webhookSecret: string }): PaymentProvider {
  const base = paymentProviderConfig();
  return tracedProvider(
    createStripePaymentProvider({
      ...base,
      apiKey: credentials.apiKey,
      webhookSecret: credentials.webhookSecret,
      onWarning,
    }),
    "stripe",
  );
}

/**
 * The provider of one tenant: its own connection when it has one, else the process-wide default. One primary-key
 * read per call, so a connection changed in Admin is used by every process (app and workers) from the next call;
 * the decrypted credentials live only inside the cached client. Throws ProviderConnectionUnusable (fail closed).
 *
 * `within`: the caller's open transaction, for callers that hold a pooled connection while they ask (prepare's live
 * read under the order lock). Reading through the pool there needs a second connection per call: with as many
 * concurrent prepares as the pool has connections, each holds one and waits for another, and none ever returns
 * (`npm run bench:gateway -- --live-read` at 32 clients hung this way).
 */
export async function paymentProviderFor(tenantId: string, within?: Sql): Promise<PaymentProvider> {
  const row = within
    ? ((await within
        .selectFrom("ProviderConnection")
        .select(["tenantId", "keyId", "apiKeySealed", "webhookSecretSealed", "version"])
        .where("tenantId", "=", tenantId)
        .executeTakeFirst()) ?? null)
    : await db().providerConnection.findUnique({ where: { tenantId } });
  if (!row) {
    tenants.delete(tenantId);
    return getPaymentProvider();
  }
  const cached = tenants.get(tenantId);
  if (cached && cached.version === row.version && cached.keyId === row.keyId) return cached.provider;
  const provider = providerWithCredentials(openConnection(row));
  tenants.set(tenantId, { version: row.version, keyId: row.keyId, provider });
  return provider;
}

/** Forget the configured instances (tests that change the provider's environment). */
export function resetPaymentProvider(): void {
  instance = null;
  tenants.clear();
}
