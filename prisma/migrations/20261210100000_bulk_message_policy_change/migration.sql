-- Loosening the tenant's bulk-message policy (a higher two-reviewer threshold, cap or tolerance, no cap, a wider send
-- window, another time zone) waits for a second admin (lib/server/admin/segments.ts), as an AdminChange of this kind.
ALTER TYPE "AdminChangeKind" ADD VALUE 'bulk_message_policy';
