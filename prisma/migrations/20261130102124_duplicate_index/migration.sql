-- CreateIndex
CREATE INDEX "Proposal_customerId_amountMinor_createdAt_idx" ON "Proposal"("customerId", "amountMinor", "createdAt");
