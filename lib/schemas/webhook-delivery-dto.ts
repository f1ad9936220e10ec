// What GET /api/admin/webhook-deliveries answers for each delivery (lib/server/admin/webhook-deliveries.ts
// declares its return type from it; the OpenAPI document describes the route with it).
import { z } from "zod";
import { deliveryAttemptsShape } from "./delivery-dto";

export const webhookDeliveryDto = z.object({
  id: z.uuid(),
  /** The reviewer webhook (review) or a channel's decision webhook (decision). */
  target: z.enum(["review", "decision"]),
  channelId: z.uuid().nullable(),
  event: z.string(),
  status: z.enum(["pending", "delivered", "failed"]),
  /** The receiver's last HTTP status, if it answered. */
  lastStatus: z.int().nullable(),
  deliveredAt: z.iso.datetime().nullable(),
  ...deliveryAttemptsShape,
});
export type WebhookDeliveryView = z.infer<typeof webhookDeliveryDto>;

export const webhookDeliveriesDto = z.object({ deliveries: z.array(webhookDeliveryDto) });
