-- CreateTable
CREATE TABLE "StaffSession" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "staffUserId" UUID NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "stepUpAt" TIMESTAMP(3) NOT NULL,
    "stepUpMethod" TEXT NOT NULL,

    CONSTRAINT "StaffSession_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "StaffSession_staffUserId_createdAt_idx" ON "StaffSession"("staffUserId", "createdAt");

-- AddForeignKey
ALTER TABLE "StaffSession" ADD CONSTRAINT "StaffSession_staffUserId_fkey" FOREIGN KEY ("staffUserId") REFERENCES "StaffUser"("id") ON DELETE CASCADE ON UPDATE CASCADE;
