-- Action kinds (docs/action-kinds.md): a proposal is of a kind — the refund, an order cancellation, an address
-- change… — and names what it acts on (`subject` {type, ref}). Hash v5 binds the kind's derived `params` and the
-- `source` snapshot they were derived from; refunds keep their own columns (and hashes v1–v4). Additive: the release
-- before kinds keeps working against this schema (it inserts refunds only, without kind or subject; see the
-- default and the trigger below).

-- AlterTable
ALTER TABLE "Proposal" ADD COLUMN "kind" TEXT NOT NULL DEFAULT 'refund',
ADD COLUMN "params" JSONB,
ADD COLUMN "source" JSONB,
ADD COLUMN "subject" JSONB,
ALTER COLUMN "orderId" DROP NOT NULL,
ALTER COLUMN "customerId" DROP NOT NULL,
ALTER COLUMN "paymentId" DROP NOT NULL,
ALTER COLUMN "amountMinor" DROP NOT NULL,
ALTER COLUMN "currency" DROP NOT NULL,
ALTER COLUMN "recipientKind" DROP NOT NULL,
ALTER COLUMN "recipientRef" DROP NOT NULL,
ALTER COLUMN "recipientHolder" DROP NOT NULL,
ALTER COLUMN "recipientDisplay" DROP NOT NULL;

-- Every proposal so far is a refund of its order.
UPDATE "Proposal" SET "subject" = jsonb_build_object('type', 'order', 'ref', "orderId"::text);

-- The release before kinds inserts a refund without a subject (during a rolling upgrade, or after a rollback): its
-- subject is its order, as above. Every row this release writes names its subject itself.
CREATE FUNCTION "proposal_subject_of_previous_release"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."subject" IS NULL AND NEW."orderId" IS NOT NULL THEN
    NEW."subject" := jsonb_build_object('type', 'order', 'ref', NEW."orderId"::text);
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER "Proposal_subject_of_previous_release" BEFORE INSERT ON "Proposal"
  FOR EACH ROW WHEN (NEW."subject" IS NULL) EXECUTE FUNCTION "proposal_subject_of_previous_release"();

ALTER TABLE "Proposal" ALTER COLUMN "subject" SET NOT NULL;

-- A subject is {type, ref}, both non-empty strings; a v5 proposal carries the params it was hashed over. (COALESCE:
-- a CHECK passes on NULL, and jsonb_typeof of a missing key is NULL.)
ALTER TABLE "Proposal" ADD CONSTRAINT "Proposal_subject_check" CHECK (
  COALESCE(jsonb_typeof("subject" -> 'type') = 'string' AND "subject" ->> 'type' <> ''
       AND jsonb_typeof("subject" -> 'ref') = 'string' AND "subject" ->> 'ref' <> '', false));
ALTER TABLE "Proposal" ADD CONSTRAINT "Proposal_params_check" CHECK (
  "hashVersion" < 5 OR COALESCE(jsonb_typeof("params") = 'object', false));

-- A refund always has its order, customer, payment, amount and recipient (hashes v1–v4 are over them).
ALTER TABLE "Proposal" ADD CONSTRAINT "Proposal_refund_columns_check" CHECK (
  "kind" <> 'refund' OR (
    "orderId" IS NOT NULL AND "customerId" IS NOT NULL AND "paymentId" IS NOT NULL AND "amountMinor" IS NOT NULL
    AND "currency" IS NOT NULL AND "recipientKind" IS NOT NULL AND "recipientRef" IS NOT NULL
    AND "recipientHolder" IS NOT NULL AND "recipientDisplay" IS NOT NULL));

-- One pending proposal per (tenant, kind, subject) — for a refund, per order as before.
CREATE UNIQUE INDEX "Proposal_one_pending_per_subject" ON "Proposal"
  ("tenantId", "kind", ("subject" ->> 'type'), ("subject" ->> 'ref')) WHERE "status" = 'pending_approval';
DROP INDEX "Proposal_one_pending_per_order";

-- Decision webhooks name the outcome after the kind ("refund.succeeded", "cancel_order.in_doubt"…) and carry the
-- kind and subject; the amount and order number only when the proposal has them. The function no longer knows any
-- kind: a refund's events keep their names because its kind is "refund".
CREATE OR REPLACE FUNCTION "enqueue_decision_webhook"() RETURNS trigger LANGUAGE plpgsql AS $$
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
    WHEN 'succeeded' THEN NEW."kind" || '.succeeded'
    WHEN 'failed' THEN NEW."kind" || '.failed'
    WHEN 'needs_reconciliation' THEN NEW."kind" || '.in_doubt'
    ELSE NULL END;
  IF event IS NULL THEN RETURN NULL; END IF;
  data := jsonb_build_object(
    'proposal_id', NEW."id",
    'kind', NEW."kind",
    'subject', NEW."subject",
    'status', NEW."status"::text,
    'trace_id', NEW."traceId");
  IF NEW."orderId" IS NOT NULL THEN
    data := data || jsonb_build_object('order_id', (SELECT o."number" FROM "Order" o WHERE o."id" = NEW."orderId"));
  END IF;
  IF NEW."amountMinor" IS NOT NULL THEN
    data := data || jsonb_build_object('amount', jsonb_build_object('minor', NEW."amountMinor", 'currency', NEW."currency"));
  END IF;
  IF event = 'proposal.rejected' THEN
    -- The reviewer's message for the customer (never the internal note).
    data := data || jsonb_build_object('reason', NEW."rejectionReason");
  END IF;
  IF event = 'proposal.invalidated' THEN
    SELECT p."id", p."amountMinor", p."currency", p."status"::text AS "status" INTO successor
      FROM "Proposal" p WHERE p."supersedesId" = NEW."id";
    IF FOUND THEN
      event := 'proposal.superseded';
      data := data || jsonb_build_object('superseded_by',
        jsonb_build_object('proposal_id', successor."id", 'status', successor."status")
        || CASE WHEN successor."amountMinor" IS NULL THEN '{}'::jsonb
           ELSE jsonb_build_object('amount', jsonb_build_object('minor', successor."amountMinor", 'currency', successor."currency")) END);
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
