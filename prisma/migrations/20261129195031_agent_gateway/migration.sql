-- CreateEnum
CREATE TYPE "ProposalStatus" AS ENUM ('pending_approval', 'approved', 'executing', 'succeeded', 'failed', 'needs_reconciliation', 'rejected', 'expired', 'invalidated');

-- CreateEnum
CREATE TYPE "TicketCategory" AS ENUM ('billing', 'technical', 'complaint');

-- CreateEnum
CREATE TYPE "TicketPriority" AS ENUM ('low', 'normal', 'urgent');

-- CreateEnum
CREATE TYPE "TicketStatus" AS ENUM ('open', 'closed');

-- CreateEnum
CREATE TYPE "AuditActorType" AS ENUM ('agent', 'staff', 'system');

-- CreateTable
CREATE TABLE "Proposal" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "orderId" UUID NOT NULL,
    "customerId" TEXT NOT NULL,
    "paymentId" UUID NOT NULL,
    "requestedByAgentKeyId" UUID,
    "requestedByStaffId" UUID,
    "channelId" UUID,
    "endUserId" TEXT,
    "tool" TEXT NOT NULL DEFAULT 'prepare_refund',
    "amountMinor" INTEGER NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "recipientKind" TEXT NOT NULL,
    "recipientRef" TEXT NOT NULL,
    "recipientHolder" TEXT NOT NULL,
    "recipientDisplay" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "status" "ProposalStatus" NOT NULL DEFAULT 'pending_approval',
    "hash" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "requiredApprovals" INTEGER NOT NULL DEFAULT 1,
    "supersedesId" UUID,
    "rejectionReason" TEXT,
    "invalidationReason" TEXT,
    "decidedAt" TIMESTAMP(3),
    "traceId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Proposal_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SupportTicket" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "customerId" TEXT,
    "agentKeyId" UUID,
    "channelId" UUID,
    "category" "TicketCategory" NOT NULL,
    "priority" "TicketPriority" NOT NULL,
    "summary" TEXT NOT NULL,
    "status" "TicketStatus" NOT NULL DEFAULT 'open',
    "traceId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SupportTicket_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AgentBudgetPolicy" (
    "tenantId" UUID NOT NULL,
    "maxCallsPerTrace" INTEGER NOT NULL DEFAULT 50,
    "maxRepeatsPerTrace" INTEGER NOT NULL DEFAULT 5,
    "maxErrorsPerTrace" INTEGER NOT NULL DEFAULT 10,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AgentBudgetPolicy_pkey" PRIMARY KEY ("tenantId")
);

-- CreateTable
CREATE TABLE "AgentTraceCounter" (
    "tenantId" UUID NOT NULL,
    "traceId" TEXT NOT NULL,
    "counter" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AgentTraceCounter_pkey" PRIMARY KEY ("tenantId","traceId","counter")
);

-- CreateTable
CREATE TABLE "AuditEvent" (
    "id" UUID NOT NULL,
    "tenantId" UUID,
    "seq" INTEGER NOT NULL,
    "occurredAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "traceId" TEXT NOT NULL,
    "actorType" "AuditActorType" NOT NULL,
    "actorId" TEXT,
    "authMethod" TEXT,
    "action" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "proposalId" UUID,
    "proposalHash" TEXT,
    "model" TEXT,
    "promptVersion" TEXT,
    "channel" TEXT,
    "endUser" TEXT,
    "data" JSONB NOT NULL,
    "fingerprints" TEXT[],
    "prevHash" TEXT,
    "hash" TEXT NOT NULL,

    CONSTRAINT "AuditEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Proposal_supersedesId_key" ON "Proposal"("supersedesId");

-- CreateIndex
CREATE INDEX "Proposal_tenantId_status_createdAt_idx" ON "Proposal"("tenantId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "Proposal_orderId_status_idx" ON "Proposal"("orderId", "status");

-- CreateIndex
CREATE INDEX "Proposal_traceId_idx" ON "Proposal"("traceId");

-- CreateIndex
CREATE INDEX "SupportTicket_tenantId_createdAt_idx" ON "SupportTicket"("tenantId", "createdAt");

-- CreateIndex
CREATE INDEX "AgentTraceCounter_createdAt_idx" ON "AgentTraceCounter"("createdAt");

-- CreateIndex
CREATE INDEX "AuditEvent_traceId_idx" ON "AuditEvent"("traceId");

-- CreateIndex
CREATE INDEX "AuditEvent_tenantId_occurredAt_idx" ON "AuditEvent"("tenantId", "occurredAt");

-- CreateIndex
CREATE INDEX "AuditEvent_proposalId_idx" ON "AuditEvent"("proposalId");

-- CreateIndex
CREATE UNIQUE INDEX "AuditEvent_tenantId_seq_key" ON "AuditEvent"("tenantId", "seq");

-- AddForeignKey
ALTER TABLE "Proposal" ADD CONSTRAINT "Proposal_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Proposal" ADD CONSTRAINT "Proposal_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Proposal" ADD CONSTRAINT "Proposal_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Proposal" ADD CONSTRAINT "Proposal_paymentId_fkey" FOREIGN KEY ("paymentId") REFERENCES "Payment"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Proposal" ADD CONSTRAINT "Proposal_requestedByAgentKeyId_fkey" FOREIGN KEY ("requestedByAgentKeyId") REFERENCES "AgentKey"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Proposal" ADD CONSTRAINT "Proposal_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "Channel"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Proposal" ADD CONSTRAINT "Proposal_supersedesId_fkey" FOREIGN KEY ("supersedesId") REFERENCES "Proposal"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SupportTicket" ADD CONSTRAINT "SupportTicket_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SupportTicket" ADD CONSTRAINT "SupportTicket_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SupportTicket" ADD CONSTRAINT "SupportTicket_agentKeyId_fkey" FOREIGN KEY ("agentKeyId") REFERENCES "AgentKey"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SupportTicket" ADD CONSTRAINT "SupportTicket_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "Channel"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AgentBudgetPolicy" ADD CONSTRAINT "AgentBudgetPolicy_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Hand-written (not expressible in schema.prisma) ------------------------------------------------

-- At most one proposal awaiting approval per order: concurrent prepare_refund calls for one order are
-- one logical operation (the use case also locks the order row; this is the database's own guarantee).
CREATE UNIQUE INDEX "Proposal_one_pending_per_order" ON "Proposal"("orderId") WHERE "status" = 'pending_approval';

-- "Every event about this fingerprint" (auditor search).
CREATE INDEX "AuditEvent_fingerprints_idx" ON "AuditEvent" USING GIN ("fingerprints");

-- The audit trail is append-only: no UPDATE ever; DELETE only inside a retention purge that says so
-- with SET LOCAL app.audit_purge = 'on' (the purge keeps the chain verifiable by recording a checkpoint).
CREATE FUNCTION "audit_event_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('app.audit_purge', true) = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'AuditEvent is append-only (% refused)', TG_OP;
END;
$$;

CREATE TRIGGER "AuditEvent_append_only"
  BEFORE UPDATE OR DELETE ON "AuditEvent"
  FOR EACH ROW EXECUTE FUNCTION "audit_event_append_only"();
