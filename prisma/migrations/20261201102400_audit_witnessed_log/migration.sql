-- Witnessed log (docs/audit.md): each checkpoint is also signed as a C2SP tlog-checkpoint note, witnesses of a
-- tenant cosign it (cosignature/v1), and their cosignatures are kept beside it.

-- The note's origin ("<host>/audit/<logId>") and its signature lines ("— name base64\n", one per signing key:
-- two during a key rotation's overlap). Null for checkpoints signed before this migration.
ALTER TABLE "AuditSignedCheckpoint" ADD COLUMN "origin" TEXT, ADD COLUMN "noteSignatures" TEXT;

-- A tenant's witnesses: name, vkey (type 0x04), URL prefix of their add-checkpoint, and what the sequencer
-- last learned from each (size it cosigned, when, the last refusal).
CREATE TABLE "AuditWitness" (
  "id" UUID NOT NULL,
  "tenantId" UUID NOT NULL,
  "name" TEXT NOT NULL,
  "vkey" TEXT NOT NULL,
  "url" TEXT NOT NULL,
  "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "cosignedSize" INTEGER,
  "cosignedAt" TIMESTAMP(3),
  "lastAttemptAt" TIMESTAMP(3),
  "lastError" TEXT,
  CONSTRAINT "AuditWitness_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "AuditWitness_tenantId_name_key" ON "AuditWitness"("tenantId", "name");

-- One cosignature line per witness and checkpoint: evidence, append-only like the checkpoints.
CREATE TABLE "AuditCosignature" (
  "logId" UUID NOT NULL,
  "treeSize" INTEGER NOT NULL,
  "witness" TEXT NOT NULL,
  "line" TEXT NOT NULL,
  "cosignedAt" TIMESTAMP(3) NOT NULL,
  CONSTRAINT "AuditCosignature_pkey" PRIMARY KEY ("logId", "treeSize", "witness")
);
CREATE TRIGGER "AuditCosignature_append_only" BEFORE UPDATE OR DELETE ON "AuditCosignature" FOR EACH ROW EXECUTE FUNCTION "audit_log_append_only"();
CREATE TRIGGER "AuditCosignature_no_truncate" BEFORE TRUNCATE ON "AuditCosignature" FOR EACH STATEMENT EXECUTE FUNCTION "audit_refuse_truncate"();
