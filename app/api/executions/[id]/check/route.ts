import { staffRoute } from "@/lib/server/http/staff-route";
import { checkExecutionNow } from "@/lib/server/executions/check-execution-now";

export const dynamic = "force-dynamic";

export const POST = staffRoute<{ params: Promise<{ id: string }> }>(async (actor, _request, { params }) =>
  checkExecutionNow(actor, { executionId: (await params).id }),
);
