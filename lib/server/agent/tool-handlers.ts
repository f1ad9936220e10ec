import "server-only";
import type { z } from "zod";
import { toolCatalog, type ToolName } from "@/lib/schemas/tools";
import type { Tx } from "@/lib/server/db/client";
import { lookupOrder } from "@/lib/server/orders/lookup-order";
import { prepareRefund } from "@/lib/server/refunds/prepare-refund";
import { getRefundStatus } from "@/lib/server/refunds/get-refund-status";
import { createSupportTicket } from "@/lib/server/tickets/create-support-ticket";
import type { HandlerResult, ToolContext } from "./tool-context";

type Handler = (tx: Tx, input: never, ctx: ToolContext) => Promise<HandlerResult>;

/**
 * How each tool runs: its use case, whether it needs a verified customer (anonymous end users may not
 * look at orders or money), and the argument fields allowed to stay in clear in the audit trail.
 */
export const toolHandlers: Record<ToolName, { run: Handler; needsCustomer: boolean; auditClear: readonly string[] }> = {
  lookup_order: { run: lookupOrder, needsCustomer: true, auditClear: ["order_id"] },
  prepare_refund: { run: prepareRefund, needsCustomer: true, auditClear: ["order_id", "reason"] },
  get_refund_status: { run: getRefundStatus, needsCustomer: true, auditClear: ["proposal_id"] },
  create_support_ticket: { run: createSupportTicket, needsCustomer: false, auditClear: ["category", "priority"] },
};

export function parseToolInput(name: ToolName, args: unknown) {
  return (toolCatalog[name].input as z.ZodType).safeParse(args);
}
