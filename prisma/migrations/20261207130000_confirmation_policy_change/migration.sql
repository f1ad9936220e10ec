-- Dropping a kind from the tenant's customerConfirmationKinds loosens who must confirm: it waits for a second admin
-- (lib/server/admin/confirmation-policy.ts), as an AdminChange of this kind.
ALTER TYPE "AdminChangeKind" ADD VALUE 'confirmation_policy';
