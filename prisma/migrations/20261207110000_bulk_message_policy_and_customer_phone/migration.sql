-- The bulk message's send window in a zone of its own (docs/action-kinds.md "The bulk message"): null = the tenant's.
ALTER TABLE "BulkMessagePolicy" ADD COLUMN "timeZone" TEXT;

-- A customer's phone number (E.164) when the system of record has one: an SMS bulk message's audience reads it
-- (a customer without one is skipped and counted). Null: none on record.
ALTER TABLE "Customer" ADD COLUMN "phone" TEXT;
