-- The bulk message kind (send_bulk_message, docs/action-kinds.md): segments an admin declares (named filters over the
-- tenant's orders, versioned like policy: a change is a new row with the next version, never an update), the tenant's
-- bulk-message settings (a missing row = the defaults), and the batches an execution sent on the action endpoint, each
-- recorded with its own idempotency key before the next is sent. The runtime role gets DML through the default
-- privileges (scripts/lib/app-role.ts).

-- CreateTable
CREATE TABLE "Segment" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "slug" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "filter" JSONB NOT NULL,
    "createdById" UUID,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Segment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BulkMessagePolicy" (
    "tenantId" UUID NOT NULL,
    "recipientsThreshold" INTEGER NOT NULL DEFAULT 100,
    "dailyRecipientsCap" INTEGER DEFAULT 5000,
    "tolerancePercent" INTEGER NOT NULL DEFAULT 0,
    "windowStartHour" INTEGER NOT NULL DEFAULT 9,
    "windowEndHour" INTEGER NOT NULL DEFAULT 20,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BulkMessagePolicy_pkey" PRIMARY KEY ("tenantId")
);

-- CreateTable
CREATE TABLE "BulkMessageBatch" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "executionId" UUID NOT NULL,
    "index" INTEGER NOT NULL,
    "idempotencyKey" TEXT NOT NULL,
    "recipientIds" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'planned',
    "reference" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "lastAttemptAt" TIMESTAMP(3),
    "settledAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BulkMessageBatch_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Segment_tenantId_slug_version_key" ON "Segment"("tenantId", "slug", "version");

-- CreateIndex
CREATE UNIQUE INDEX "BulkMessageBatch_idempotencyKey_key" ON "BulkMessageBatch"("idempotencyKey");

-- CreateIndex
CREATE UNIQUE INDEX "BulkMessageBatch_executionId_index_key" ON "BulkMessageBatch"("executionId", "index");

-- AddForeignKey
ALTER TABLE "Segment" ADD CONSTRAINT "Segment_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BulkMessagePolicy" ADD CONSTRAINT "BulkMessagePolicy_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BulkMessageBatch" ADD CONSTRAINT "BulkMessageBatch_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BulkMessageBatch" ADD CONSTRAINT "BulkMessageBatch_executionId_fkey" FOREIGN KEY ("executionId") REFERENCES "Execution"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- A batch moves planned → sending → succeeded | failed | pending | unknown (the shop's answer, or none we can trust).
ALTER TABLE "BulkMessageBatch" ADD CONSTRAINT "BulkMessageBatch_status_check"
  CHECK ("status" IN ('planned', 'sending', 'succeeded', 'failed', 'pending', 'unknown'));
-- Policy bounds: at least one recipient before two reviewers; a window inside the day.
ALTER TABLE "BulkMessagePolicy" ADD CONSTRAINT "BulkMessagePolicy_values_check"
  CHECK ("recipientsThreshold" >= 1 AND ("dailyRecipientsCap" IS NULL OR "dailyRecipientsCap" >= 1)
         AND "tolerancePercent" BETWEEN 0 AND 100
         AND "windowStartHour" BETWEEN 0 AND 23 AND "windowEndHour" BETWEEN 1 AND 24
         AND "windowStartHour" < "windowEndHour");
