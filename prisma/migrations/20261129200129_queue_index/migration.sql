-- CreateIndex
CREATE INDEX "Proposal_queue_idx" ON "Proposal"("tenantId", "status", "expiresAt", "id");
