-- Per-tenant payment provider connections (docs/systems-of-record.md "Per-tenant connection"): the
-- restricted key and webhook secret sealed with AES-256-GCM under SECRETS_KEY (never in clear text here).
-- The runtime role gets DML through the default privileges (scripts/lib/app-role.ts).

-- CreateTable
CREATE TABLE "ProviderConnection" (
    "tenantId" UUID NOT NULL,
    "apiKeyHint" TEXT NOT NULL,
    "apiKeySealed" TEXT NOT NULL,
    "webhookSecretSealed" TEXT NOT NULL,
    "keyId" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "updatedById" UUID,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ProviderConnection_pkey" PRIMARY KEY ("tenantId")
);

-- AddForeignKey
ALTER TABLE "ProviderConnection" ADD CONSTRAINT "ProviderConnection_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
