-- AlterTable
ALTER TABLE "AgentBudgetPolicy" ADD COLUMN     "maxCallsPerEndUserPerWindow" INTEGER NOT NULL DEFAULT 60,
ADD COLUMN     "maxCallsPerKeyPerWindow" INTEGER NOT NULL DEFAULT 600,
ADD COLUMN     "windowSeconds" INTEGER NOT NULL DEFAULT 60;

-- CreateTable
CREATE TABLE "AgentWindowCounter" (
    "tenantId" UUID NOT NULL,
    "subject" TEXT NOT NULL,
    "windowStart" TIMESTAMP(3) NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "AgentWindowCounter_pkey" PRIMARY KEY ("tenantId","subject","windowStart")
);

-- CreateIndex
CREATE INDEX "AgentWindowCounter_windowStart_idx" ON "AgentWindowCounter"("windowStart");

-- Hand-written: a window budget of zero seconds or a negative limit is a typo, not a policy.
ALTER TABLE "AgentBudgetPolicy" ADD CONSTRAINT "AgentBudgetPolicy_window_check"
  CHECK ("windowSeconds" BETWEEN 1 AND 86400 AND "maxCallsPerKeyPerWindow" >= 0 AND "maxCallsPerEndUserPerWindow" >= 0);
