-- MCP tasks (docs/agent-api.md "Waiting for a human"): a task-augmented call of a prepare tool returns a task that
-- stays `working` while a person decides and ends with the outcome envelope. Kept here, not in memory, so any
-- instance answers tasks/get, tasks/result and tasks/cancel. A task belongs to the agent key that made it; while it
-- is open its status is read from its proposal, and once it ends the final status and result are written here.
-- The runtime role gets DML through the default privileges (scripts/lib/app-role.ts).

-- CreateTable
CREATE TABLE "McpTask" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "agentKeyId" UUID NOT NULL,
    "proposalId" UUID,
    "customerId" TEXT,
    "tool" TEXT NOT NULL,
    "traceId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "statusMessage" TEXT,
    "result" JSONB,
    "ttlMs" INTEGER NOT NULL,
    "pollIntervalMs" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "McpTask_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "McpTask_status_check" CHECK ("status" IN ('working', 'input_required', 'completed', 'failed', 'cancelled')),
    -- An ended task keeps its result; an open one has none (it is read from the proposal).
    CONSTRAINT "McpTask_result_check" CHECK (("status" IN ('completed', 'failed')) = ("result" IS NOT NULL))
);

-- CreateIndex
CREATE INDEX "McpTask_tenantId_agentKeyId_createdAt_idx" ON "McpTask"("tenantId", "agentKeyId", "createdAt");

-- AddForeignKey
ALTER TABLE "McpTask" ADD CONSTRAINT "McpTask_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "McpTask" ADD CONSTRAINT "McpTask_agentKeyId_fkey" FOREIGN KEY ("agentKeyId") REFERENCES "AgentKey"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "McpTask" ADD CONSTRAINT "McpTask_proposalId_fkey" FOREIGN KEY ("proposalId") REFERENCES "Proposal"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
