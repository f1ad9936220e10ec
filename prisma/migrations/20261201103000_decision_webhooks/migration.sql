-- Decision webhooks (docs/agent-api.md "Decision webhooks"): a channel may have a URL to which every
-- outcome of its proposals is POSTed in the Standard Webhooks format.

-- AlterTable
ALTER TABLE "Channel" ADD COLUMN "decisionWebhookUrl" TEXT,
ADD COLUMN "decisionWebhookSecret" TEXT,
ADD COLUMN "previousDecisionWebhookSecret" TEXT,
ADD COLUMN "previousDecisionWebhookSecretUntil" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN "channelId" UUID;

-- CreateIndex
CREATE INDEX "WebhookDelivery_tenantId_createdAt_idx" ON "WebhookDelivery"("tenantId", "createdAt");

-- The outbox is written by the database itself, at COMMIT of whatever changed the proposal (a reviewer, the
-- expiry sweep, the worker, the reconciler): one place that no writer can forget, in the same transaction as
-- the change (a rolled-back change sends nothing). A DEFERRED constraint trigger runs at commit, so an edit
-- that invalidates a proposal and inserts its successor in one transaction is seen as `proposal.superseded`
-- with the successor's id. The delivery job's key follows lib/server/jobs/job-types.ts
-- (deliver_decision_webhook: keyPrefix "deliver_decision_webhook:", keyField deliveryId; 8 attempts as
-- DECISION_WEBHOOK_MAX_ATTEMPTS in lib/server/notifications/deliver-decision-webhook.ts).
CREATE FUNCTION "enqueue_decision_webhook"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  hook_url text;
  event text;
  successor RECORD;
  delivery uuid := gen_random_uuid();
  data jsonb;
BEGIN
  IF NEW."channelId" IS NULL THEN RETURN NULL; END IF;
  SELECT c."decisionWebhookUrl" INTO hook_url FROM "Channel" c WHERE c."id" = NEW."channelId";
  IF hook_url IS NULL THEN RETURN NULL; END IF;
  event := CASE NEW."status"::text
    WHEN 'approved' THEN 'proposal.approved'
    WHEN 'rejected' THEN 'proposal.rejected'
    WHEN 'expired' THEN 'proposal.expired'
    WHEN 'invalidated' THEN 'proposal.invalidated'
    WHEN 'succeeded' THEN 'refund.succeeded'
    WHEN 'failed' THEN 'refund.failed'
    WHEN 'needs_reconciliation' THEN 'refund.in_doubt'
    ELSE NULL END;
  IF event IS NULL THEN RETURN NULL; END IF;
  data := jsonb_build_object(
    'proposal_id', NEW."id",
    'status', NEW."status"::text,
    'order_id', (SELECT o."number" FROM "Order" o WHERE o."id" = NEW."orderId"),
    'amount', jsonb_build_object('minor', NEW."amountMinor", 'currency', NEW."currency"),
    'trace_id', NEW."traceId");
  IF event = 'proposal.rejected' THEN
    -- The reviewer's message for the customer (never the internal note).
    data := data || jsonb_build_object('reason', NEW."rejectionReason");
  END IF;
  IF event = 'proposal.invalidated' THEN
    SELECT p."id", p."amountMinor", p."status"::text AS "status" INTO successor FROM "Proposal" p WHERE p."supersedesId" = NEW."id";
    IF FOUND THEN
      event := 'proposal.superseded';
      data := data || jsonb_build_object('superseded_by', jsonb_build_object(
        'proposal_id', successor."id", 'status', successor."status",
        'amount', jsonb_build_object('minor', successor."amountMinor", 'currency', NEW."currency")));
    ELSE
      data := data || jsonb_build_object('reason', NEW."invalidationReason");
    END IF;
  END IF;
  INSERT INTO "WebhookDelivery" ("id", "tenantId", "channelId", "event", "proposalId", "payload", "createdAt")
  VALUES (delivery, NEW."tenantId", NEW."channelId", event, NEW."id",
    jsonb_build_object('type', event, 'timestamp', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'data', data),
    (now() AT TIME ZONE 'UTC'));
  PERFORM graphile_worker.add_job(
    'deliver_decision_webhook',
    json_build_object('deliveryId', delivery),
    max_attempts => 8,
    job_key => 'deliver_decision_webhook:' || delivery::text);
  RETURN NULL;
END;
$$;

CREATE CONSTRAINT TRIGGER "Proposal_decision_webhook"
  AFTER UPDATE OF "status" ON "Proposal"
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status") EXECUTE FUNCTION "enqueue_decision_webhook"();
