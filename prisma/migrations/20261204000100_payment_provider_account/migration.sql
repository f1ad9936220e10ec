-- The provider account a payment lives in (docs/systems-of-record.md "Whose payment it is"): "default" = the
-- installation's connection (PAYMENT_PROVIDER_*), shared by every tenant without an own connection;
-- "tenant:<id>" = the tenant's own connection.
ALTER TABLE "Payment" ADD COLUMN "providerAccount" TEXT NOT NULL DEFAULT 'default';

UPDATE "Payment" p SET "providerAccount" = 'tenant:' || p."tenantId"
 WHERE EXISTS (SELECT 1 FROM "ProviderConnection" c WHERE c."tenantId" = p."tenantId");

-- Two tenants holding one payment intent of one account is the state this migration exists to forbid: stop with a
-- message that says what to do rather than a bare duplicate-key error (nothing of this migration is applied).
DO $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM "Payment" WHERE "provider" = 'stripe'
     GROUP BY "providerAccount", "providerPaymentRef" HAVING count(*) > 1
  ) THEN
    RAISE EXCEPTION 'two or more tenants hold one payment reference of one provider account; find them with: SELECT "providerAccount", "providerPaymentRef", array_agg("tenantId") FROM "Payment" WHERE "provider" = ''stripe'' GROUP BY 1, 2 HAVING count(*) > 1 — remove or correct the rows of the tenant the payment intent does not belong to, then migrate again (docs/systems-of-record.md)';
  END IF;
END $$;

-- One payment per (account, payment intent): a reference another tenant holds at the same account is refused.
-- Manual references are the shop's own numbers and stay unique per tenant only ("Payment_tenantId_providerPaymentRef_key").
CREATE UNIQUE INDEX "Payment_stripe_account_reference_key" ON "Payment"("providerAccount", "providerPaymentRef")
  WHERE "provider" = 'stripe';
