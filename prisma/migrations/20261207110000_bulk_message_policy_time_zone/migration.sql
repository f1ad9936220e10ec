-- The bulk message's send window in a zone of its own (docs/action-kinds.md "The bulk message"): null = the tenant's.
ALTER TABLE "BulkMessagePolicy" ADD COLUMN "timeZone" TEXT;
