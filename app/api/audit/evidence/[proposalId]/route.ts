import { staffFileRoute } from "@/lib/server/http/file-route";
import { buildEvidencePack } from "@/lib/server/audit/build-evidence-pack";

export const dynamic = "force-dynamic";

/** GET /api/audit/evidence/<proposalId> — the proposal's evidence pack (verify with `npm run evidence:verify FILE`). */
export const GET = staffFileRoute<{ params: Promise<{ proposalId: string }> }>(async (actor, _request, { params }) => {
  const { proposalId } = await params;
  const pack = await buildEvidencePack(actor, proposalId);
  return { filename: pack.filename, contentType: "application/json; charset=utf-8", body: pack.body };
});
