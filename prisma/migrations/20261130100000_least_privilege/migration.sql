-- Least privilege (docs/database-roles.md). Hand-written: no schema.prisma change.
-- The application and the worker connect as a role that owns nothing and may not UPDATE, DELETE or
-- TRUNCATE the append-only audit tables (its grants: scripts/lib/app-role.ts, applied at every start).
-- Here: what holds even for the owner.

-- 1. TRUNCATE skips row triggers, so the append-only triggers never see it: refuse it per statement.
--    Every append-only table gets this trigger (a new audit table: add one line like these).
CREATE FUNCTION "audit_refuse_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only (TRUNCATE refused)', TG_TABLE_NAME;
END;
$$;

CREATE TRIGGER "AuditEvent_no_truncate" BEFORE TRUNCATE ON "AuditEvent" FOR EACH STATEMENT EXECUTE FUNCTION "audit_refuse_truncate"();
CREATE TRIGGER "AuditCheckpoint_no_truncate" BEFORE TRUNCATE ON "AuditCheckpoint" FOR EACH STATEMENT EXECUTE FUNCTION "audit_refuse_truncate"();
CREATE TRIGGER "AuditChainCheck_no_truncate" BEFORE TRUNCATE ON "AuditChainCheck" FOR EACH STATEMENT EXECUTE FUNCTION "audit_refuse_truncate"();

-- 2. The retention purge is the one DELETE of audit events. The runtime role has no DELETE on them, so
--    the purge goes through this function, which runs with its owner's rights and deletes only a
--    prefix of one tenant's chain, never a trace under legal hold (lib/server/audit/purge-audit-events.ts
--    records the checkpoint and the purge event in the same transaction).
CREATE FUNCTION "audit_purge_prefix"(p_tenant uuid, p_through integer) RETURNS integer
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  n integer;
BEGIN
  PERFORM set_config('app.audit_purge', 'on', true);
  DELETE FROM "AuditEvent"
   WHERE "tenantId" = p_tenant AND "seq" <= p_through
     AND "traceId" NOT IN (SELECT "traceId" FROM "AuditLegalHold" WHERE "tenantId" = p_tenant);
  GET DIAGNOSTICS n = ROW_COUNT;
  PERFORM set_config('app.audit_purge', 'off', true);
  RETURN n;
END;
$$;
REVOKE ALL ON FUNCTION "audit_purge_prefix"(uuid, integer) FROM PUBLIC;
