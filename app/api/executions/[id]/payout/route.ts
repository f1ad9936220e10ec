import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { recordManualPayout } from "@/lib/server/executions/record-manual-payout";

export const dynamic = "force-dynamic";

/** Ops record a manual payout's transfer reference: `{ reference }` (docs/staff-api.md). */
export const POST = staffRoute<{ params: Promise<{ id: string }> }>(async (actor, request, { params }) => {
  const body = await jsonBody(request);
  return recordManualPayout(actor, { ...body, executionId: (await params).id });
});
