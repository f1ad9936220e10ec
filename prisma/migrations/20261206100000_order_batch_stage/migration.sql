-- The set-based order import's staging rows (lib/server/orders/upsert-order-batch.ts, docs/systems-of-record.md
-- "Bulk orders"): each batch COPYs the customers of its new orders here under its own "batchId", upserts "Customer"
-- from them in one statement (the last line naming a customer wins), and deletes them in the same transaction, so
-- no other transaction ever sees a row. UNLOGGED: nothing here outlives its transaction, so it needs no WAL
-- (Prisma cannot say UNLOGGED; the drift check does not compare it). A table of the schema rather than a
-- temporary one: the runtime role has no TEMPORARY (scripts/lib/app-role.ts).
CREATE UNLOGGED TABLE "OrderBatchStage" (
    "batchId" UUID NOT NULL,
    "line" INTEGER NOT NULL,
    "customerId" TEXT NOT NULL,
    "customerName" TEXT NOT NULL,
    "customerEmail" TEXT NOT NULL,

    CONSTRAINT "OrderBatchStage_pkey" PRIMARY KEY ("batchId","line")
);
