-- Realtime: every change of a proposal's or an execution's status is announced with pg_notify on the
-- channel "proposal_changes" (lib/server/realtime/proposal-changes.ts listens). NOTIFY inside a transaction
-- is delivered at COMMIT, so a listener never sees a change that rolled back. The payload is small JSON
-- with ids and the new status only: no amounts, names or other personal data.

CREATE FUNCTION "notify_proposal_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('proposal_changes', json_build_object(
    'tenantId', NEW."tenantId",
    'proposalId', NEW."id",
    'status', NEW."status",
    'kind', 'proposal'
  )::text);
  RETURN NULL;
END;
$$;

CREATE FUNCTION "notify_execution_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('proposal_changes', json_build_object(
    'tenantId', NEW."tenantId",
    'proposalId', NEW."proposalId",
    'status', NEW."status",
    'kind', 'execution'
  )::text);
  RETURN NULL;
END;
$$;

CREATE TRIGGER "Proposal_notify_insert"
  AFTER INSERT ON "Proposal"
  FOR EACH ROW EXECUTE FUNCTION "notify_proposal_change"();

CREATE TRIGGER "Proposal_notify_status"
  AFTER UPDATE OF "status" ON "Proposal"
  FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status") EXECUTE FUNCTION "notify_proposal_change"();

CREATE TRIGGER "Execution_notify_insert"
  AFTER INSERT ON "Execution"
  FOR EACH ROW EXECUTE FUNCTION "notify_execution_change"();

CREATE TRIGGER "Execution_notify_status"
  AFTER UPDATE OF "status" ON "Execution"
  FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status") EXECUTE FUNCTION "notify_execution_change"();
