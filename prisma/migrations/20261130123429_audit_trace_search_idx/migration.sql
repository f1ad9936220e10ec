-- CreateIndex
CREATE INDEX "AuditEvent_tenantId_traceId_pos_idx" ON "AuditEvent"("tenantId", "traceId", "pos");
