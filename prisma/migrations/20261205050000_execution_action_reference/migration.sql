-- Executions on the shop's action endpoint (docs/action-endpoint.md): the shop's own reference for the action it
-- carried out (its answer's `reference`), shown to ops and kept in the trace. A refund's stays `providerRefundId`.
ALTER TABLE "Execution" ADD COLUMN "actionReference" TEXT;
