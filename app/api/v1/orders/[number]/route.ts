import { integrationJsonBody, integrationRoute } from "@/lib/server/http/integration-route";
import { getOrder } from "@/lib/server/orders/get-order";
import { apiWriter, upsertOrder } from "@/lib/server/orders/upsert-order";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ number: string }> };

/** PUT /api/v1/orders/{number} (scope orders:write): idempotent upsert → 201 created | 200 {number, refundable, changed}. */
export const PUT = integrationRoute<Params>("orders:write", async (caller, request, { params }, traceId) => {
  const { number } = await params;
  const result = await upsertOrder(apiWriter(caller), number, await integrationJsonBody(request), traceId);
  return Response.json(
    { number: result.number, refundable: result.refundable, changed: result.changed },
    { status: result.created ? 201 : 200 },
  );
});

/** GET /api/v1/orders/{number} (scope orders:read): the stored order with what is left to refund. */
export const GET = integrationRoute<Params>("orders:read", async (caller, _request, { params }) =>
  Response.json(await getOrder(caller, (await params).number)),
);
