-- Every read of an event by traceId names its tenant, and AuditEvent_tenantId_traceId_pos_idx answers it (an
-- ordered scan per partition). The traceId-only index only cost every audit write one more btree insert.
-- Dropping the partitioned parent's index drops each partition's index with it.
DROP INDEX IF EXISTS "AuditEvent_traceId_idx";
