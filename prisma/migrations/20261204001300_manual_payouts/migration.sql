-- Manual payouts (docs/systems-of-record.md "Manual payments"): a refund of a payment no connected provider
-- holds waits for ops to pay it out and record the transfer's reference.

-- AlterEnum (PostgreSQL 12+: the new value is not used in this migration's transaction)
ALTER TYPE "ExecutionStatus" ADD VALUE 'awaiting_payout';

-- AlterTable
ALTER TABLE "Execution" ADD COLUMN "payoutReference" TEXT,
ADD COLUMN "payoutRecordedById" UUID,
ADD COLUMN "payoutRecordedAt" TIMESTAMP(3),
ADD COLUMN "payoutConfirmedById" UUID,
ADD COLUMN "payoutConfirmedAt" TIMESTAMP(3);

-- A confirmation is by a second person, never the one who recorded it (four-eyes), whatever path wrote it.
ALTER TABLE "Execution" ADD CONSTRAINT "Execution_payout_four_eyes"
  CHECK ("payoutConfirmedById" IS NULL OR "payoutConfirmedById" <> "payoutRecordedById");
