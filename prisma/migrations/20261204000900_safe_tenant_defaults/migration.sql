-- Safe defaults for a real tenant and the operator-granted admin (issue #36 items 3 and 4).

-- AlterTable: how long a session approves without a fresh password or passkey (capped by stepUpMinutes).
-- 1440 for every existing tenant keeps what they run with (the step-up window alone decides).
ALTER TABLE "Tenant" ADD COLUMN "approvalSessionMinutes" INTEGER NOT NULL DEFAULT 1440;

-- AlterTable: an admin granted by the operator (npm run admin:grant) is independent of who invited them.
ALTER TABLE "StaffUser" ADD COLUMN "operatorGrantedAt" TIMESTAMP(3);

-- Stored policy versions are immutable (trigger): one without the field ran with 1440, and is read so
-- (lib/domain/policy.ts storedPolicyValues).
