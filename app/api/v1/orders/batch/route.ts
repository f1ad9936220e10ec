import { integrationRoute } from "@/lib/server/http/integration-route";
import { batchOrders } from "@/lib/server/orders/batch-orders";
import { apiWriter } from "@/lib/server/orders/upsert-order";
import { methodNotAllowed } from "@/lib/server/http/method-not-allowed";

export const dynamic = "force-dynamic";

/** POST /api/v1/orders/batch (scope orders:write): up to 1,000 orders → 200 {results:[{number, outcome, problems?}]}. */
export const POST = integrationRoute("orders:write", async (caller, request, _context, traceId) =>
  Response.json(await batchOrders(apiWriter(caller), request, traceId)),
);

// Every API error is JSON: a GET here is a JSON 405 naming what the route accepts.
export const GET = methodNotAllowed("POST");
