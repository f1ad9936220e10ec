import { staffRoute } from "@/lib/server/http/staff-route";
import { confirmManualPayout } from "@/lib/server/executions/record-manual-payout";

import { methodNotAllowed } from "@/lib/server/http/method-not-allowed";

export const dynamic = "force-dynamic";

/** A second ops member confirms a recorded manual payout (four-eyes; never the one who recorded it). */
export const POST = staffRoute<{ params: Promise<{ id: string }> }>(async (actor, _request, { params }) =>
  confirmManualPayout(actor, { executionId: (await params).id }),
);

// Every API error is JSON: a GET here is a JSON 405 naming what the route accepts.
export const GET = methodNotAllowed("POST");
