-- CreateTable
CREATE TABLE "AuditCheckpoint" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "lastSeq" INTEGER NOT NULL,
    "lastHash" TEXT NOT NULL,
    "purgedCount" INTEGER NOT NULL,
    "heldCount" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AuditCheckpoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuditLegalHold" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "traceId" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "createdById" UUID,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AuditLegalHold_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuditChainCheck" (
    "id" UUID NOT NULL,
    "ok" BOOLEAN NOT NULL,
    "tenants" INTEGER NOT NULL,
    "events" INTEGER NOT NULL,
    "tenantId" UUID,
    "brokenAtSeq" INTEGER,
    "eventId" UUID,
    "problem" TEXT,
    "source" TEXT NOT NULL,
    "checkedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AuditChainCheck_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "AuditCheckpoint_tenantId_lastSeq_key" ON "AuditCheckpoint"("tenantId", "lastSeq");

-- CreateIndex
CREATE UNIQUE INDEX "AuditLegalHold_tenantId_traceId_key" ON "AuditLegalHold"("tenantId", "traceId");

-- CreateIndex
CREATE INDEX "AuditChainCheck_checkedAt_idx" ON "AuditChainCheck"("checkedAt");

-- Checkpoints are evidence too: never changed, never deleted (a deleted checkpoint would let a purged
-- prefix pass for a truncated chain, so the verifier would then refuse the chain instead).
CREATE FUNCTION "audit_checkpoint_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'AuditCheckpoint is append-only (% refused)', TG_OP;
END;
$$;

CREATE TRIGGER "AuditCheckpoint_append_only"
  BEFORE UPDATE OR DELETE ON "AuditCheckpoint"
  FOR EACH ROW EXECUTE FUNCTION "audit_checkpoint_append_only"();
