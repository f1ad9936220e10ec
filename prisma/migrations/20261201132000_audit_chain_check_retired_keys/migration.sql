-- Key rotation (docs/audit.md "Rotating the signing key"): a verification run records which retired keys
-- signed checkpoints within their validity ("signed by retired key K (valid A – B)"), so /api/health can say
-- it — a rotated log is not a tampered one.
ALTER TABLE "AuditChainCheck" ADD COLUMN "signedByRetired" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
