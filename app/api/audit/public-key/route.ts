import { auditPublicKey } from "@/lib/server/audit/signing-key";

export const dynamic = "force-dynamic";

/**
 * GET /api/audit/public-key — the Ed25519 public key that signs audit checkpoints (public by nature: no
 * session needed). Auditors keep it (or compare it with the one published out of band) and verify
 * evidence packs offline with it (`npm run evidence:verify -- FILE --public-key KEY`).
 */
export function GET(): Response {
  try {
    return Response.json(auditPublicKey(), { headers: { "Cache-Control": "public, max-age=300" } });
  } catch {
    return Response.json(
      { code: "internal_error", error: { message: "The audit signing key is not configured." } },
      { status: 503 },
    );
  }
}
