-- CreateEnum
CREATE TYPE "ExecutionStatus" AS ENUM ('sending', 'pending', 'succeeded', 'failed', 'unknown');

-- CreateTable
CREATE TABLE "Execution" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "proposalId" UUID NOT NULL,
    "idempotencyKey" TEXT NOT NULL,
    "status" "ExecutionStatus" NOT NULL DEFAULT 'sending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "reconciliations" INTEGER NOT NULL DEFAULT 0,
    "providerRefundId" TEXT,
    "failureReason" TEXT,
    "lastError" TEXT,
    "lastAttemptAt" TIMESTAMP(3),
    "settledAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Execution_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Execution_proposalId_key" ON "Execution"("proposalId");

-- CreateIndex
CREATE UNIQUE INDEX "Execution_idempotencyKey_key" ON "Execution"("idempotencyKey");

-- CreateIndex
CREATE UNIQUE INDEX "Execution_providerRefundId_key" ON "Execution"("providerRefundId");

-- CreateIndex
CREATE INDEX "Execution_tenantId_status_createdAt_idx" ON "Execution"("tenantId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "Execution_status_lastAttemptAt_idx" ON "Execution"("status", "lastAttemptAt");

-- AddForeignKey
ALTER TABLE "Execution" ADD CONSTRAINT "Execution_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Execution" ADD CONSTRAINT "Execution_proposalId_fkey" FOREIGN KEY ("proposalId") REFERENCES "Proposal"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
