-- A proposal that carries out the second step of another one under its approval (docs/action-kinds.md, "Steps"):
-- the refund that goes with an order cancellation is a refund proposal whose parent is the cancellation. It is
-- created only when the parent's first step succeeded, approved by the parent's approval (never by its own), and at
-- most one per parent (the unique index): the second step exists once, never without the first.
ALTER TABLE "Proposal" ADD COLUMN "parentId" UUID;
ALTER TABLE "Proposal" ADD CONSTRAINT "Proposal_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "Proposal"("id")
  ON DELETE RESTRICT ON UPDATE CASCADE;
CREATE UNIQUE INDEX "Proposal_parentId_key" ON "Proposal"("parentId");
-- A follow-up is never a proposal of its own parent, and never awaits a review of its own.
ALTER TABLE "Proposal" ADD CONSTRAINT "Proposal_follow_up_check" CHECK (
  "parentId" IS NULL OR ("parentId" <> "id" AND "status" <> 'pending_approval'));
