-- Customer confirmation bound to the hash (docs/agent-api.md "Customer confirmation", docs/action-kinds.md "Who
-- confirms"). A proposal says who must confirm it — reviewers, the customer, or both — decided at prepare and hashed:
-- hash v6 (the kinds' v5 + `confirmation`) and v7 (the refund's v4 + `confirmation`). A row hashed v1–v5 predates
-- the field and can only mean "reviewers": the CHECK keeps it so, so the choice is always bound to the hash.
ALTER TABLE "Proposal" ADD COLUMN "confirmation" TEXT NOT NULL DEFAULT 'reviewers';
ALTER TABLE "Proposal" ADD CONSTRAINT "Proposal_confirmation_check" CHECK (
  "confirmation" IN ('reviewers', 'customer', 'both')
  AND ("hashVersion" IN (6, 7) OR "confirmation" = 'reviewers'));
-- v7 is refund-shaped (its values are the refund's columns, no params), like v1–v4.
ALTER TABLE "Proposal" DROP CONSTRAINT "Proposal_params_check";
ALTER TABLE "Proposal" ADD CONSTRAINT "Proposal_params_check" CHECK (
  "hashVersion" < 5 OR "hashVersion" = 7 OR COALESCE(jsonb_typeof("params") = 'object', false));

-- Tenant policy may raise who confirms, never lower it: the kinds listed here also need the customer's confirmation.
ALTER TABLE "Tenant" ADD COLUMN "customerConfirmationKinds" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];

-- One confirm link: a random token, only its SHA-256 kept, bound to the proposal, its hash when issued and the end
-- user (`sub`); short-lived and used once. Its use records the decision, the hash shown, when and a redacted user agent.
CREATE TABLE "CustomerConfirmation" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "proposalId" UUID NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "proposalHash" TEXT NOT NULL,
    "endUserSub" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "usedAt" TIMESTAMP(3),
    "decision" TEXT,
    "shownHash" TEXT,
    "reason" TEXT,
    "userAgent" TEXT,

    CONSTRAINT "CustomerConfirmation_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "CustomerConfirmation_tokenHash_key" ON "CustomerConfirmation"("tokenHash");
CREATE INDEX "CustomerConfirmation_proposalId_idx" ON "CustomerConfirmation"("proposalId");
ALTER TABLE "CustomerConfirmation" ADD CONSTRAINT "CustomerConfirmation_proposalId_fkey" FOREIGN KEY ("proposalId") REFERENCES "Proposal"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
-- Used means decided: a decision, the hash shown and the time together, or none of them.
ALTER TABLE "CustomerConfirmation" ADD CONSTRAINT "CustomerConfirmation_use_check" CHECK (
  ("usedAt" IS NULL AND "decision" IS NULL AND "shownHash" IS NULL)
  OR ("usedAt" IS NOT NULL AND "decision" IN ('confirmed', 'declined') AND "shownHash" IS NOT NULL));
-- A proposal is confirmed at most once.
CREATE UNIQUE INDEX "CustomerConfirmation_one_confirmed" ON "CustomerConfirmation"("proposalId") WHERE "decision" = 'confirmed';

-- The customer's own decision on the confirm page is audited as theirs (actor id: the token's `sub`).
ALTER TYPE "AuditActorType" ADD VALUE 'end_user';
