// What GET /api/admin/webhook-deliveries answers for each delivery (lib/server/admin/webhook-deliveries.ts
// declares its return type from it; the OpenAPI document describes the route with it).
import { z } from "zod";

export const webhookDeliveryDto = z.object({
  id: z.uuid(),
  /** The reviewer webhook (review) or a channel's decision webhook (decision). */
  target: z.enum(["review", "decision"]),
  channelId: z.uuid().nullable(),
  event: z.string(),
  proposalId: z.uuid().nullable(),
  status: z.enum(["pending", "delivered", "failed"]),
  attempts: z.int().min(0),
  lastStatus: z.int().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.iso.datetime(),
  deliveredAt: z.iso.datetime().nullable(),
  /** When the worker tries a pending delivery next (its job's run_at); null once it is delivered or failed. */
  nextAttemptAt: z.iso.datetime().nullable(),
});
export type WebhookDeliveryView = z.infer<typeof webhookDeliveryDto>;

export const webhookDeliveriesDto = z.object({ deliveries: z.array(webhookDeliveryDto) });
