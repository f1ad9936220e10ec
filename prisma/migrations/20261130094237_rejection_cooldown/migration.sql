-- AlterTable
ALTER TABLE "Proposal" ADD COLUMN     "rejectedByStaffId" UUID;

-- AlterTable
ALTER TABLE "Tenant" ADD COLUMN     "rejectionCooldownMinutes" INTEGER NOT NULL DEFAULT 1440;
