-- Witness policy per tenant (docs/audit.md "Witnesses", docs/admin-api.md "Witnesses"): how many of the
-- tenant's witnesses must cosign a checkpoint. 0 = no quorum required. Raising it (or adding a witness)
-- applies at once; lowering it (or removing a witness) waits for a second admin (AdminChange kind
-- witness_policy).
ALTER TABLE "Tenant" ADD COLUMN "witnessQuorum" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Tenant" ADD CONSTRAINT "Tenant_witnessQuorum_check" CHECK ("witnessQuorum" >= 0);

ALTER TYPE "AdminChangeKind" ADD VALUE 'witness_policy';
