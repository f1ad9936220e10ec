-- AlterTable
ALTER TABLE "AgentKey" ADD COLUMN     "expiresAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "Channel" ADD COLUMN     "previousEndUserTokenSecret" TEXT,
ADD COLUMN     "previousSecretValidUntil" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "StaffSetupToken" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "staffUserId" UUID NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "createdById" UUID,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "StaffSetupToken_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "StaffSetupToken_tokenHash_key" ON "StaffSetupToken"("tokenHash");

-- CreateIndex
CREATE INDEX "StaffSetupToken_staffUserId_idx" ON "StaffSetupToken"("staffUserId");

-- AddForeignKey
ALTER TABLE "StaffSetupToken" ADD CONSTRAINT "StaffSetupToken_staffUserId_fkey" FOREIGN KEY ("staffUserId") REFERENCES "StaffUser"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
