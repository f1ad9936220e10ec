-- Issue 14: the audit trail as a transparency log (docs/audit.md). Events are appended without a tenant
-- lock; a sequencer integrates them into a per-tenant RFC 9162 Merkle tree (AuditLeaf, AuditTreeNode) and
-- signs checkpoints (AuditSignedCheckpoint). AuditEvent becomes partitioned by month (hand-written below).

-- DropIndex
DROP INDEX "AuditEvent_tenantId_seq_key";

-- Events of the hash chain (recipe v2) join the tree as legacy leaves, in their chain order: the leaf is
-- SHA-256(0x00 || 'audit-v2:' || their chain hash), which the verifier accepts for them (docs/audit.md).
CREATE TABLE "AuditPending" (
    "eventId" UUID NOT NULL,
    "logId" UUID NOT NULL,
    "pos" BIGINT NOT NULL,
    "leafHash" TEXT NOT NULL,
    "occurredAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AuditPending_pkey" PRIMARY KEY ("eventId")
);
INSERT INTO "AuditPending" ("eventId", "logId", "pos", "leafHash", "occurredAt")
SELECT "id", COALESCE("tenantId", '00000000-0000-0000-0000-000000000000'::uuid),
       row_number() OVER (ORDER BY "tenantId", "seq"),
       encode(sha256('\x00'::bytea || convert_to('audit-v2:' || "hash", 'UTF8')), 'hex'), "occurredAt"
  FROM "AuditEvent";

-- AlterTable
ALTER TABLE "AuditEvent" DROP COLUMN "prevHash",
DROP COLUMN "seq",
ADD COLUMN     "pos" BIGSERIAL NOT NULL;

-- AlterTable
ALTER TABLE "AuditLegalHold" ADD COLUMN     "releasedAt" TIMESTAMP(3),
ADD COLUMN     "releasedById" UUID;

-- DropTable
DROP TABLE "AuditCheckpoint";
DROP FUNCTION "audit_checkpoint_append_only"();
-- The chain-prefix purge of the least_privilege migration: replaced by "audit_purge_content" below.
DROP FUNCTION "audit_purge_prefix"(uuid, integer);

-- CreateTable
CREATE TABLE "AuditLeaf" (
    "logId" UUID NOT NULL,
    "leafIndex" INTEGER NOT NULL,
    "eventId" UUID NOT NULL,
    "leafHash" TEXT NOT NULL,
    "occurredAt" TIMESTAMP(3) NOT NULL,
    "integratedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AuditLeaf_pkey" PRIMARY KEY ("logId","leafIndex")
);

-- CreateTable
CREATE TABLE "AuditTreeNode" (
    "logId" UUID NOT NULL,
    "level" INTEGER NOT NULL,
    "index" INTEGER NOT NULL,
    "hash" TEXT NOT NULL,

    CONSTRAINT "AuditTreeNode_pkey" PRIMARY KEY ("logId","level","index")
);

-- CreateTable
CREATE TABLE "AuditSignedCheckpoint" (
    "logId" UUID NOT NULL,
    "treeSize" INTEGER NOT NULL,
    "rootHash" TEXT NOT NULL,
    "issuedAt" TIMESTAMP(3) NOT NULL,
    "keyId" TEXT NOT NULL,
    "signature" TEXT NOT NULL,

    CONSTRAINT "AuditSignedCheckpoint_pkey" PRIMARY KEY ("logId","treeSize")
);

-- CreateTable
CREATE TABLE "AuditPurge" (
    "id" UUID NOT NULL,
    "logId" UUID NOT NULL,
    "before" TIMESTAMP(3) NOT NULL,
    "treeSize" INTEGER NOT NULL,
    "purgedCount" INTEGER NOT NULL,
    "heldCount" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AuditPurge_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AuditPending_logId_pos_idx" ON "AuditPending"("logId", "pos");

-- CreateIndex
CREATE UNIQUE INDEX "AuditLeaf_eventId_key" ON "AuditLeaf"("eventId");

-- CreateIndex
CREATE INDEX "AuditPurge_logId_before_idx" ON "AuditPurge"("logId", "before");

-- CreateIndex
CREATE INDEX "AuditEvent_tenantId_pos_idx" ON "AuditEvent"("tenantId", "pos");

-- ---------------------------------------------------------------------------------------------------------
-- Hand-written: AuditEvent partitioned by month on "occurredAt" (native range partitioning). Prisma keeps
-- mapping the parent table. The primary key must include the partition key: ("id", "occurredAt").
ALTER TABLE "AuditEvent" RENAME TO "AuditEvent_unpartitioned";
ALTER TABLE "AuditEvent_unpartitioned" RENAME CONSTRAINT "AuditEvent_pkey" TO "AuditEvent_unpartitioned_pkey";
ALTER INDEX "AuditEvent_traceId_idx" RENAME TO "AuditEvent_unpartitioned_traceId_idx";
ALTER INDEX "AuditEvent_tenantId_occurredAt_idx" RENAME TO "AuditEvent_unpartitioned_tenantId_occurredAt_idx";
ALTER INDEX "AuditEvent_proposalId_idx" RENAME TO "AuditEvent_unpartitioned_proposalId_idx";
ALTER INDEX "AuditEvent_fingerprints_idx" RENAME TO "AuditEvent_unpartitioned_fingerprints_idx";
ALTER INDEX "AuditEvent_tenantId_pos_idx" RENAME TO "AuditEvent_unpartitioned_tenantId_pos_idx";
DROP TRIGGER "AuditEvent_append_only" ON "AuditEvent_unpartitioned";

CREATE TABLE "AuditEvent" (
    "id" UUID NOT NULL,
    "tenantId" UUID,
    "occurredAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "traceId" TEXT NOT NULL,
    "actorType" "AuditActorType" NOT NULL,
    "actorId" TEXT,
    "authMethod" TEXT,
    "action" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "proposalId" UUID,
    "proposalHash" TEXT,
    "model" TEXT,
    "promptVersion" TEXT,
    "channel" TEXT,
    "endUser" TEXT,
    "data" JSONB NOT NULL,
    "fingerprints" TEXT[],
    "hash" TEXT NOT NULL,
    "pos" BIGINT NOT NULL DEFAULT nextval('"AuditEvent_pos_seq"'),

    CONSTRAINT "AuditEvent_pkey" PRIMARY KEY ("id", "occurredAt")
) PARTITION BY RANGE ("occurredAt");
ALTER SEQUENCE "AuditEvent_pos_seq" OWNED BY "AuditEvent"."pos";

-- Rows outside every monthly partition land here (the sequencer job keeps months ahead created, so it
-- stays empty; a month cannot be created while this holds rows of it).
CREATE TABLE "AuditEvent_default" PARTITION OF "AuditEvent" DEFAULT;
CREATE TRIGGER "AuditEvent_default_no_truncate" BEFORE TRUNCATE ON "AuditEvent_default" FOR EACH STATEMENT EXECUTE FUNCTION "audit_refuse_truncate"();

-- Creates the monthly partitions from `first_month` through `months_ahead` months after now (idempotent),
-- each with the TRUNCATE guard (a partition's TRUNCATE does not fire the parent's trigger). DDL that the
-- runtime role may not run itself: the worker's sequencer calls this owner's function (SECURITY DEFINER).
CREATE FUNCTION "audit_event_ensure_partitions"(first_month date, months_ahead integer) RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  m date := date_trunc('month', first_month)::date;
  last_m date := (date_trunc('month', now() AT TIME ZONE 'UTC') + make_interval(months => months_ahead))::date;
  created integer := 0;
  name text;
BEGIN
  WHILE m <= last_m LOOP
    name := 'AuditEvent_' || to_char(m, 'YYYY_MM');
    IF to_regclass(format('%I', name)) IS NULL THEN
      EXECUTE format('CREATE TABLE %I PARTITION OF "AuditEvent" FOR VALUES FROM (%L) TO (%L)', name, m, (m + interval '1 month')::date);
      EXECUTE format('CREATE TRIGGER %I BEFORE TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION "audit_refuse_truncate"()', name || '_no_truncate', name);
      created := created + 1;
    END IF;
    m := (m + interval '1 month')::date;
  END LOOP;
  RETURN created;
END;
$$;

SELECT "audit_event_ensure_partitions"(
  LEAST(COALESCE((SELECT min("occurredAt") FROM "AuditEvent_unpartitioned"), now() AT TIME ZONE 'UTC'), now() AT TIME ZONE 'UTC')::date, 3);

INSERT INTO "AuditEvent" ("id", "tenantId", "occurredAt", "traceId", "actorType", "actorId", "authMethod", "action", "outcome", "proposalId",
                          "proposalHash", "model", "promptVersion", "channel", "endUser", "data", "fingerprints", "hash", "pos")
SELECT "id", "tenantId", "occurredAt", "traceId", "actorType", "actorId", "authMethod", "action", "outcome", "proposalId",
       "proposalHash", "model", "promptVersion", "channel", "endUser", "data", "fingerprints", "hash", "pos"
  FROM "AuditEvent_unpartitioned";
DROP TABLE "AuditEvent_unpartitioned";

CREATE INDEX "AuditEvent_traceId_idx" ON "AuditEvent"("traceId");
CREATE INDEX "AuditEvent_tenantId_occurredAt_idx" ON "AuditEvent"("tenantId", "occurredAt");
CREATE INDEX "AuditEvent_proposalId_idx" ON "AuditEvent"("proposalId");
CREATE INDEX "AuditEvent_tenantId_pos_idx" ON "AuditEvent"("tenantId", "pos");
CREATE INDEX "AuditEvent_fingerprints_idx" ON "AuditEvent" USING GIN ("fingerprints");

-- Still append-only (the function from the agent_gateway migration): no UPDATE, DELETE only in a purge.
CREATE TRIGGER "AuditEvent_append_only"
  BEFORE UPDATE OR DELETE ON "AuditEvent"
  FOR EACH ROW EXECUTE FUNCTION "audit_event_append_only"();
CREATE TRIGGER "AuditEvent_no_truncate" BEFORE TRUNCATE ON "AuditEvent" FOR EACH STATEMENT EXECUTE FUNCTION "audit_refuse_truncate"();

-- The tree and its signed heads are evidence: never changed, never deleted (retention drops event content,
-- never a leaf). AuditPending is a queue: the sequencer deletes what it integrated.
CREATE FUNCTION "audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only (% refused)', TG_TABLE_NAME, TG_OP;
END;
$$;
CREATE TRIGGER "AuditLeaf_append_only" BEFORE UPDATE OR DELETE ON "AuditLeaf" FOR EACH ROW EXECUTE FUNCTION "audit_log_append_only"();
CREATE TRIGGER "AuditTreeNode_append_only" BEFORE UPDATE OR DELETE ON "AuditTreeNode" FOR EACH ROW EXECUTE FUNCTION "audit_log_append_only"();
CREATE TRIGGER "AuditSignedCheckpoint_append_only" BEFORE UPDATE OR DELETE ON "AuditSignedCheckpoint" FOR EACH ROW EXECUTE FUNCTION "audit_log_append_only"();
CREATE TRIGGER "AuditPurge_append_only" BEFORE UPDATE OR DELETE ON "AuditPurge" FOR EACH ROW EXECUTE FUNCTION "audit_log_append_only"();
CREATE TRIGGER "AuditLeaf_no_truncate" BEFORE TRUNCATE ON "AuditLeaf" FOR EACH STATEMENT EXECUTE FUNCTION "audit_refuse_truncate"();
CREATE TRIGGER "AuditTreeNode_no_truncate" BEFORE TRUNCATE ON "AuditTreeNode" FOR EACH STATEMENT EXECUTE FUNCTION "audit_refuse_truncate"();
CREATE TRIGGER "AuditSignedCheckpoint_no_truncate" BEFORE TRUNCATE ON "AuditSignedCheckpoint" FOR EACH STATEMENT EXECUTE FUNCTION "audit_refuse_truncate"();
CREATE TRIGGER "AuditPurge_no_truncate" BEFORE TRUNCATE ON "AuditPurge" FOR EACH STATEMENT EXECUTE FUNCTION "audit_refuse_truncate"();

-- Retention (docs/audit.md, docs/database-roles.md): the one DELETE of audit events, in the owner's rights
-- since the runtime role has no DELETE on AuditEvent. Deletes the content of one log's events older than
-- `p_before` that are already leaves below `p_tree_size` (their leaf hashes stay), never a trace under an
-- active legal hold. The caller records the AuditPurge row and the purge's own event in the same transaction.
CREATE FUNCTION "audit_purge_content"(p_log uuid, p_before timestamp, p_tree_size integer) RETURNS integer
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  n integer;
BEGIN
  PERFORM set_config('app.audit_purge', 'on', true);
  DELETE FROM "AuditEvent" e
   WHERE (CASE WHEN p_log = '00000000-0000-0000-0000-000000000000'::uuid THEN e."tenantId" IS NULL ELSE e."tenantId" = p_log END)
     AND e."occurredAt" < p_before
     AND NOT EXISTS (SELECT 1 FROM "AuditLegalHold" h WHERE h."tenantId" = p_log AND h."traceId" = e."traceId" AND h."releasedAt" IS NULL)
     AND EXISTS (SELECT 1 FROM "AuditLeaf" l WHERE l."eventId" = e."id" AND l."logId" = p_log AND l."leafIndex" < p_tree_size);
  GET DIAGNOSTICS n = ROW_COUNT;
  PERFORM set_config('app.audit_purge', 'off', true);
  RETURN n;
END;
$$;
REVOKE ALL ON FUNCTION "audit_purge_content"(uuid, timestamp, integer) FROM PUBLIC;

-- Detaches and drops the monthly partitions that ended on or before `p_before` and are empty (DDL, owner's rights).
CREATE FUNCTION "audit_event_drop_empty_partitions"(p_before date) RETURNS SETOF text
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  part record;
  is_empty boolean;
BEGIN
  FOR part IN
    SELECT c.relname AS name
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = '"AuditEvent"'::regclass AND c.relname ~ '^AuditEvent_[0-9]{4}_[0-9]{2}$'
       AND (to_date(substring(c.relname from 12), 'YYYY_MM') + interval '1 month')::date <= p_before
  LOOP
    EXECUTE format('SELECT NOT EXISTS (SELECT 1 FROM %I)', part.name) INTO is_empty;
    IF is_empty THEN
      EXECUTE format('ALTER TABLE "AuditEvent" DETACH PARTITION %I', part.name);
      EXECUTE format('DROP TABLE %I', part.name);
      RETURN NEXT part.name;
    END IF;
  END LOOP;
END;
$$;
REVOKE ALL ON FUNCTION "audit_event_drop_empty_partitions"(date) FROM PUBLIC;
