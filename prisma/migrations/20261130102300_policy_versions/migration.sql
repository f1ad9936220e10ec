-- CreateEnum
CREATE TYPE "PolicyVersionStatus" AS ENUM ('active', 'superseded', 'awaiting_second_admin', 'rejected');

-- AlterTable
ALTER TABLE "Proposal" ADD COLUMN     "policyVersion" INTEGER;

-- AlterTable
ALTER TABLE "Tenant" ADD COLUMN     "policyVersion" INTEGER NOT NULL DEFAULT 1;

-- CreateTable
CREATE TABLE "PolicyVersion" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "values" JSONB NOT NULL,
    "basedOnVersion" INTEGER,
    "status" "PolicyVersionStatus" NOT NULL,
    "createdById" UUID,
    "decidedById" UUID,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decidedAt" TIMESTAMP(3),

    CONSTRAINT "PolicyVersion_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "PolicyVersion_tenantId_status_idx" ON "PolicyVersion"("tenantId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "PolicyVersion_tenantId_version_key" ON "PolicyVersion"("tenantId", "version");

-- Hand-written: one active and at most one pending version per tenant.
CREATE UNIQUE INDEX "PolicyVersion_one_active_idx" ON "PolicyVersion"("tenantId") WHERE "status" = 'active';
CREATE UNIQUE INDEX "PolicyVersion_one_pending_idx" ON "PolicyVersion"("tenantId") WHERE "status" = 'awaiting_second_admin';

-- Hand-written: a version's number, tenant and values never change, and versions are never deleted.
CREATE FUNCTION policy_version_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'policy versions are never deleted';
  END IF;
  IF NEW."values" IS DISTINCT FROM OLD."values" OR NEW."version" <> OLD."version" OR NEW."tenantId" <> OLD."tenantId"
     OR NEW."basedOnVersion" IS DISTINCT FROM OLD."basedOnVersion" OR NEW."createdById" IS DISTINCT FROM OLD."createdById" THEN
    RAISE EXCEPTION 'policy versions are immutable (only their status moves)';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER "PolicyVersion_immutable" BEFORE UPDATE OR DELETE ON "PolicyVersion"
  FOR EACH ROW EXECUTE FUNCTION policy_version_immutable();
CREATE TRIGGER "PolicyVersion_no_truncate" BEFORE TRUNCATE ON "PolicyVersion" FOR EACH STATEMENT EXECUTE FUNCTION "audit_refuse_truncate"();

-- Hand-written: version 1 of every existing tenant = its current policy (tenants created later get theirs
-- on first use, lib/server/admin/policy/ensure-policy-version.ts).
INSERT INTO "PolicyVersion" ("id", "tenantId", "version", "values", "basedOnVersion", "status")
SELECT gen_random_uuid(), t."id", 1,
       jsonb_build_object(
         'approvalExpiryMinutes', t."approvalExpiryMinutes",
         'stepUpMinutes', t."stepUpMinutes",
         'dualApprovalThresholdMinor', t."dualApprovalThresholdMinor",
         'reviewerDailyApprovalLimitMinor', t."reviewerDailyApprovalLimitMinor",
         'maxApprovalAgeMinutes', t."maxApprovalAgeMinutes",
         'retentionDays', t."retentionDays",
         'maxCallsPerTrace', COALESCE(b."maxCallsPerTrace", 50),
         'maxRepeatsPerTrace', COALESCE(b."maxRepeatsPerTrace", 5),
         'maxErrorsPerTrace', COALESCE(b."maxErrorsPerTrace", 10),
         'rejectionCooldownMinutes', t."rejectionCooldownMinutes",
         'maxCallsPerKeyPerWindow', COALESCE(b."maxCallsPerKeyPerWindow", 600),
         'maxCallsPerEndUserPerWindow', COALESCE(b."maxCallsPerEndUserPerWindow", 60),
         'windowSeconds', COALESCE(b."windowSeconds", 60),
         'endUserTokenMaxAgeSeconds', t."endUserTokenMaxAgeSeconds"),
       NULL, 'active'
  FROM "Tenant" t LEFT JOIN "AgentBudgetPolicy" b ON b."tenantId" = t."id";
