-- DropIndex
DROP INDEX "Proposal_traceId_idx";

-- CreateIndex
CREATE INDEX "Proposal_tenantId_traceId_idx" ON "Proposal"("tenantId", "traceId");
