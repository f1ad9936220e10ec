-- The set-based order import never used its staging table (20261206100000_order_batch_stage): it COPYs new
-- customers straight into "Customer" (lib/server/orders/upsert-order-batch.ts). An unused table of customers'
-- names and e-mails is only a place where personal data could end up; it goes.
DROP TABLE IF EXISTS "OrderBatchStage";
