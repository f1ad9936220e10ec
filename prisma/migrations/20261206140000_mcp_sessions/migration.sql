-- MCP sessions (docs/agent-api.md "MCP: asking the customer to confirm"): the MCP endpoint is stateless, but a
-- client that declares URL-mode elicitation at `initialize` gets an `Mcp-Session-Id`, so that later requests — on
-- any instance — know it may be sent `elicitation/create`. Only the SHA-256 of the session id is kept; a session
-- belongs to the agent key that opened it. The runtime role gets DML through the default privileges.

-- CreateTable
CREATE TABLE "McpSession" (
    "idHash" TEXT NOT NULL,
    "tenantId" UUID NOT NULL,
    "agentKeyId" UUID NOT NULL,
    "capabilities" JSONB NOT NULL,
    "protocolVersion" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "McpSession_pkey" PRIMARY KEY ("idHash")
);

-- AddForeignKey
ALTER TABLE "McpSession" ADD CONSTRAINT "McpSession_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "McpSession" ADD CONSTRAINT "McpSession_agentKeyId_fkey" FOREIGN KEY ("agentKeyId") REFERENCES "AgentKey"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
