-- CreateTable
CREATE TABLE "AccessDenialWindow" (
    "tenantId" UUID NOT NULL,
    "staffUserId" UUID NOT NULL,
    "target" TEXT NOT NULL,
    "windowStart" TIMESTAMP(3) NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 1,
    "lastAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AccessDenialWindow_pkey" PRIMARY KEY ("tenantId","staffUserId","target","windowStart")
);

-- CreateIndex
CREATE INDEX "AccessDenialWindow_windowStart_idx" ON "AccessDenialWindow"("windowStart");
