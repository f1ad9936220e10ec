import { staffRoute } from "@/lib/server/http/staff-route";
import { listExecutions } from "@/lib/server/executions/list-executions";

export const dynamic = "force-dynamic";

export const GET = staffRoute((actor, request) =>
  listExecutions(actor, Object.fromEntries(new URL(request.url).searchParams)),
);
