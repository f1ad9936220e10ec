-- AlterTable
ALTER TABLE "Tenant" ADD COLUMN     "endUserTokenMaxAgeSeconds" INTEGER NOT NULL DEFAULT 3600;

-- CreateTable
CREATE TABLE "ProviderWebhookEvent" (
    "eventId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ProviderWebhookEvent_pkey" PRIMARY KEY ("eventId")
);

-- CreateIndex
CREATE INDEX "ProviderWebhookEvent_receivedAt_idx" ON "ProviderWebhookEvent"("receivedAt");

-- Hand-written: a token age limit must be positive and at most a day.
ALTER TABLE "Tenant" ADD CONSTRAINT "Tenant_endUserTokenMaxAgeSeconds_check" CHECK ("endUserTokenMaxAgeSeconds" BETWEEN 1 AND 86400);
