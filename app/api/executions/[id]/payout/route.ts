import { jsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { recordManualPayout } from "@/lib/server/executions/record-manual-payout";

import { methodNotAllowed } from "@/lib/server/http/method-not-allowed";

export const dynamic = "force-dynamic";

/** Ops record a manual payout's transfer reference: `{ reference }` (docs/staff-api.md). */
export const POST = staffRoute<{ params: Promise<{ id: string }> }>(async (actor, request, { params }) => {
  const body = await jsonBody(request);
  return recordManualPayout(actor, { ...body, executionId: (await params).id });
});

// Every API error is JSON: a GET here is a JSON 405 naming what the route accepts.
export const GET = methodNotAllowed("POST");
