-- CreateEnum
CREATE TYPE "RefundOrigin" AS ENUM ('local', 'external');

-- CreateEnum
CREATE TYPE "PaymentSource" AS ENUM ('stripe', 'manual');

-- AlterEnum (PostgreSQL 12+: the new values are not used in this migration's transaction)

ALTER TYPE "RefundStatus" ADD VALUE 'requires_action';
ALTER TYPE "RefundStatus" ADD VALUE 'canceled';

-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "provider" "PaymentSource" NOT NULL DEFAULT 'stripe';

-- AlterTable
ALTER TABLE "Refund" ADD COLUMN     "origin" "RefundOrigin" NOT NULL DEFAULT 'local';

-- CreateTable
CREATE TABLE "IntegrationKey" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "keyPrefix" TEXT NOT NULL,
    "keyHash" TEXT NOT NULL,
    "scopes" TEXT[],
    "expiresAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),
    "lastUsedAt" TIMESTAMP(3),
    "createdById" UUID,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "IntegrationKey_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "IntegrationKey_keyHash_key" ON "IntegrationKey"("keyHash");

-- CreateIndex
CREATE INDEX "IntegrationKey_tenantId_idx" ON "IntegrationKey"("tenantId");

-- CreateIndex
CREATE UNIQUE INDEX "Refund_tenantId_providerRefundId_key" ON "Refund"("tenantId", "providerRefundId");

-- AddForeignKey
ALTER TABLE "IntegrationKey" ADD CONSTRAINT "IntegrationKey_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AlterTable (hash v3: the source snapshot a proposal's amount was derived from)
ALTER TABLE "Proposal" ADD COLUMN     "sourceProvider" TEXT,
ADD COLUMN     "sourceCapturedMinor" INTEGER,
ADD COLUMN     "sourceRefundedMinor" INTEGER;
