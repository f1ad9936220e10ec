-- CreateEnum
CREATE TYPE "AdminChangeKind" AS ENUM ('invite_staff', 'update_staff', 'setup_link');

-- CreateEnum
CREATE TYPE "AdminChangeStatus" AS ENUM ('pending', 'approved', 'rejected', 'cancelled', 'expired');

-- AlterTable
ALTER TABLE "StaffUser" ADD COLUMN     "adminGrantedByIds" UUID[] DEFAULT ARRAY[]::UUID[],
ADD COLUMN     "adminSince" TIMESTAMP(3),
ADD COLUMN     "credentialsResetAt" TIMESTAMP(3),
ADD COLUMN     "credentialsResetByIds" UUID[] DEFAULT ARRAY[]::UUID[],
ADD COLUMN     "invitedById" UUID;

-- CreateTable
CREATE TABLE "AdminChange" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "kind" "AdminChangeKind" NOT NULL,
    "targetId" UUID,
    "payload" JSONB NOT NULL,
    "status" "AdminChangeStatus" NOT NULL DEFAULT 'pending',
    "proposedById" UUID NOT NULL,
    "decidedById" UUID,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "decidedAt" TIMESTAMP(3),

    CONSTRAINT "AdminChange_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AdminChange_tenantId_status_idx" ON "AdminChange"("tenantId", "status");

-- One pending change per account at a time (an invitation has no account yet: targetId is null).
CREATE UNIQUE INDEX "AdminChange_one_pending_per_target" ON "AdminChange"("tenantId", "targetId") WHERE "status" = 'pending';

-- Admins of before this migration: their role counts as held since their account was created.
UPDATE "StaffUser" SET "adminSince" = "createdAt" WHERE 'admin' = ANY("roles");
