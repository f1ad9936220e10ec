import { staffRoute } from "@/lib/server/http/staff-route";
import { checkExecutionNow } from "@/lib/server/executions/check-execution-now";
import { methodNotAllowed } from "@/lib/server/http/method-not-allowed";

export const dynamic = "force-dynamic";

export const POST = staffRoute<{ params: Promise<{ id: string }> }>(async (actor, _request, { params }) =>
  checkExecutionNow(actor, { executionId: (await params).id }),
);

// Every API error is JSON: a GET here is a JSON 405 naming what the route accepts.
export const GET = methodNotAllowed("POST");
