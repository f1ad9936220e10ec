import { auditPublicKeys } from "@/lib/server/audit/signing-key";
import { publicRoute } from "@/lib/server/http/public-route";

export const dynamic = "force-dynamic";

/**
 * GET /api/audit/public-keys — every audit signing key, current, next and retired, with its validity and as a
 * C2SP vkey (public by nature). Monitors and witnesses pin a vkey from here; docs/audit.md "Keys".
 */
export const GET = publicRoute(async () =>
  Response.json({ keys: auditPublicKeys() }, { headers: { "Cache-Control": "public, max-age=300" } }),
);
