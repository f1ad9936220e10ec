-- CreateIndex
CREATE INDEX "Proposal_customerId_createdAt_idx" ON "Proposal"("customerId", "createdAt");
