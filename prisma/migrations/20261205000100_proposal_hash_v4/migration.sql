-- Hash v4 (docs/design.md "Proposal hash"): the hash also binds what the reviewer reads — the recipient's masked
-- display, the order number, the customer's name and the items as they were at prepare — and the version a row
-- was hashed with is stored in its own column instead of being inferred from which fields are null.

-- AlterTable
ALTER TABLE "Proposal" ADD COLUMN     "customerName" TEXT,
ADD COLUMN     "hashVersion" INTEGER NOT NULL DEFAULT 3,
ADD COLUMN     "orderItems" JSONB,
ADD COLUMN     "orderNumber" TEXT;

-- The rows hashed before this migration, with the rule their hashes were computed by (proposal-hash.ts before v4):
-- no policy version → v1; no source snapshot → v2; else v3 (the default).
UPDATE "Proposal" SET "hashVersion" = CASE WHEN "policyVersion" IS NULL THEN 1 ELSE 2 END
 WHERE "policyVersion" IS NULL OR "sourceProvider" IS NULL;
