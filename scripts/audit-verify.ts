// npm run audit:verify — verifies every audit log (each tenant's and the tenantless one): recomputes its
// RFC 9162 Merkle tree from the leaves, checks each event's content against its leaf, every Ed25519-signed
// checkpoint (signature and root: consecutive checkpoints are consistent, the history only grew) and the
// consistency proofs served from the stored nodes, and names the first event whose content no longer matches. Exit 0 when every chain verifies, 1 on a break (an alert event and a stored
// AuditChainCheck row are written, so /api/health reports "degraded"), 2 when it cannot run.
import nextEnv from "@next/env";

nextEnv.loadEnvConfig(process.cwd(), false, { info: () => undefined, error: console.error });
if (!process.env.DATABASE_URL) {
  console.error("[audit:verify] DATABASE_URL is not set.");
  process.exit(2);
}
const { verifyAllAuditChains } = await import("../lib/server/audit/verify-all-chains");
const { db } = await import("../lib/server/db/client");
let code = 0;
try {
  const r = await verifyAllAuditChains("audit:verify");
  if (r.ok) {
    console.log(`audit log OK: ${r.tenants} tenants, ${r.events} events verified against their signed checkpoints`);
    // A rotated key is not tampering: say which retired key signed what it signed in its period.
    for (const line of r.signedByRetired) console.log(`  ${line}`);
  } else {
    const b = r.broken!;
    console.error(
      `audit log BROKEN in tenant ${b.tenantSlug ?? "(none)"} at leaf ${b.seq} (event ${b.eventId ?? "?"}): ${b.problem}`,
    );
    code = 1;
  }
} catch (error) {
  console.error(`[audit:verify] ${error instanceof Error ? error.message : String(error)}`);
  code = 2;
} finally {
  await db().$disconnect();
}
process.exit(code);
