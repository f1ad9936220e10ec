-- Per-tenant action endpoints (docs/action-endpoint.md): the URL of the shop's action endpoint and its Standard
-- Webhooks signing secret, sealed with AES-256-GCM under SECRETS_KEY like the provider connection (never in clear
-- text here). The runtime role gets DML through the default privileges (scripts/lib/app-role.ts).

-- CreateTable
CREATE TABLE "ActionEndpoint" (
    "tenantId" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "secretSealed" TEXT NOT NULL,
    "secretHint" TEXT NOT NULL,
    "keyId" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "updatedById" UUID,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ActionEndpoint_pkey" PRIMARY KEY ("tenantId")
);

-- AddForeignKey
ALTER TABLE "ActionEndpoint" ADD CONSTRAINT "ActionEndpoint_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
