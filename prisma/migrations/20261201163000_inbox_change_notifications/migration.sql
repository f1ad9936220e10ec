-- The inbox ("waiting for you", docs/design.md "Inbox") changes without any proposal status changing: a first
-- approval of a two-approval proposal makes it wait for a second reviewer; an admin change or a policy
-- loosening waits for a second admin, until it is decided. These are announced on the same channel as the
-- status changes ("proposal_changes", lib/server/realtime), with ids only: no names, amounts or payloads.
-- NOTIFY is delivered at COMMIT, so a rolled-back approval or change announces nothing.

CREATE FUNCTION "notify_approval_added"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('proposal_changes', json_build_object(
    'tenantId', NEW."tenantId",
    'proposalId', NEW."proposalId",
    'kind', 'approval'
  )::text);
  RETURN NULL;
END;
$$;

CREATE FUNCTION "notify_admin_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('proposal_changes', json_build_object('tenantId', NEW."tenantId", 'kind', 'admin')::text);
  RETURN NULL;
END;
$$;

CREATE TRIGGER "Approval_notify_insert"
  AFTER INSERT ON "Approval"
  FOR EACH ROW EXECUTE FUNCTION "notify_approval_added"();

CREATE TRIGGER "AdminChange_notify_insert"
  AFTER INSERT ON "AdminChange"
  FOR EACH ROW EXECUTE FUNCTION "notify_admin_change"();

CREATE TRIGGER "AdminChange_notify_status"
  AFTER UPDATE OF "status" ON "AdminChange"
  FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status") EXECUTE FUNCTION "notify_admin_change"();

CREATE TRIGGER "PolicyVersion_notify_insert"
  AFTER INSERT ON "PolicyVersion"
  FOR EACH ROW EXECUTE FUNCTION "notify_admin_change"();

CREATE TRIGGER "PolicyVersion_notify_status"
  AFTER UPDATE OF "status" ON "PolicyVersion"
  FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status") EXECUTE FUNCTION "notify_admin_change"();
