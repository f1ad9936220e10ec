import { staffRoute } from "@/lib/server/http/staff-route";
import { getExecutionOverview } from "@/lib/server/executions/get-execution-overview";

export const dynamic = "force-dynamic";

export const GET = staffRoute((actor) => getExecutionOverview(actor));
