-- AlterTable
ALTER TABLE "Proposal" ADD COLUMN     "claimExpiresAt" TIMESTAMP(3),
ADD COLUMN     "claimedByStaffId" UUID,
ADD COLUMN     "rejectionInternalNote" TEXT;
