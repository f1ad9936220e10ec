import { staffRoute } from "@/lib/server/http/staff-route";
import { getExecutionDetail } from "@/lib/server/executions/get-execution-detail";

export const dynamic = "force-dynamic";

export const GET = staffRoute<{ params: Promise<{ id: string }> }>(async (actor, _request, { params }) =>
  getExecutionDetail(actor, { executionId: (await params).id }),
);
