import "server-only";
import { sql, type Sql } from "@/lib/server/db/sql";

/**
 * The provider account every tenant without an own connection shares: the installation's `PAYMENT_PROVIDER_*`
 * connection (the demo's sandbox, or one Stripe account). Payment.providerAccount's default.
 */
export const DEFAULT_PROVIDER_ACCOUNT = "default";

/** The account a tenant's own connection reaches: its payments are its own, whatever another tenant holds. */
export const tenantProviderAccount = (tenantId: string) => `tenant:${tenantId}`;

/**
 * The provider account the tenant's payments live in now (docs/systems-of-record.md "Whose payment it is"): its own
 * connection's, else the installation's shared one. A `stripe` reference is unique per account (the partial unique
 * index "Payment_stripe_account_reference_key"), so one tenant cannot claim a payment intent another holds there.
 */
export async function providerAccountOf(tx: Sql, tenantId: string): Promise<string> {
  const own = await sql<{ one: number }>`
    SELECT 1 AS "one" FROM "ProviderConnection" WHERE "tenantId" = ${tenantId}::uuid`.execute(tx);
  return own.rows.length > 0 ? tenantProviderAccount(tenantId) : DEFAULT_PROVIDER_ACCOUNT;
}
