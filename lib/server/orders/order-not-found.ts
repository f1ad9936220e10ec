import "server-only";
import { failure, type ToolOutcome } from "@/lib/domain/agent-protocol";

/**
 * The one answer for an order the caller cannot see: it does not exist, or it belongs to another customer
 * or tenant. Built only from what the caller sent, so the answers are byte-for-byte the same.
 */
export function orderNotFound(orderReference: string): ToolOutcome {
  return failure(
    "not_found",
    `No order ${JSON.stringify(orderReference)} was found for this customer. Ask the customer to check the order reference.`,
    {
      order_id: orderReference,
    },
  );
}
