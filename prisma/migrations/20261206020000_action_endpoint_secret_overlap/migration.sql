-- A rotation of the action endpoint's signing secret with an overlap (docs/action-endpoint.md, "Rotating the secret"):
-- the secret that was current keeps signing beside the new one until "previousSecretUntil", so the shop can switch
-- without refusing a request. Sealed like the current one (same key rotation, same AAD); all three set, or none.
ALTER TABLE "ActionEndpoint" ADD COLUMN "previousSecretSealed" TEXT;
ALTER TABLE "ActionEndpoint" ADD COLUMN "previousKeyId" TEXT;
ALTER TABLE "ActionEndpoint" ADD COLUMN "previousSecretUntil" TIMESTAMP(3);
ALTER TABLE "ActionEndpoint" ADD CONSTRAINT "ActionEndpoint_previous_secret_check" CHECK (
  ("previousSecretSealed" IS NULL AND "previousKeyId" IS NULL AND "previousSecretUntil" IS NULL)
  OR ("previousSecretSealed" IS NOT NULL AND "previousKeyId" IS NOT NULL AND "previousSecretUntil" IS NOT NULL));
