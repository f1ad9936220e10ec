import "server-only";
import type { z } from "zod";
import { toolCatalog, type ToolName } from "@/lib/schemas/tools";
import type { Sql } from "@/lib/server/db/sql";
import { lookupOrder } from "@/lib/server/orders/lookup-order";
import { prepareRefund } from "@/lib/server/refunds/prepare-refund";
import { getRefundStatus } from "@/lib/server/refunds/get-refund-status";
import { createSupportTicket } from "@/lib/server/tickets/create-support-ticket";
import { waitForRefundChange } from "@/lib/server/refunds/wait-for-refund-change";
import type { HandlerResult, ToolContext, WaitReport } from "./tool-context";

export type ToolHandler = {
  /**
   * The use case, on the gateway's one transaction (withPgTransaction, lib/server/db/pg.ts) as a handle of the
   * typed SQL layer (lib/server/db/sql.ts): its effect and its audit event commit together.
   */
  run: (tx: Sql, input: never, ctx: ToolContext) => Promise<HandlerResult>;
  needsCustomer: boolean;
  auditClear: readonly string[];
  /** Runs before the transaction, holding nothing: waits for a change worth answering (undefined = no wait). */
  wait?: (input: never, ctx: ToolContext, signal?: AbortSignal) => Promise<WaitReport | undefined>;
};

/**
 * How each tool runs: its use case, whether it needs a verified customer (anonymous end users may not look at
 * orders or money), and the argument fields allowed to stay in clear in the audit trail.
 */
export const toolHandlers: Record<ToolName, ToolHandler> = {
  lookup_order: { run: lookupOrder, needsCustomer: true, auditClear: ["order_id"] },
  prepare_refund: { run: prepareRefund, needsCustomer: true, auditClear: ["order_id", "reason"] },
  get_refund_status: {
    run: getRefundStatus,
    wait: waitForRefundChange,
    needsCustomer: true,
    auditClear: ["proposal_id", "wait_seconds"],
  },
  create_support_ticket: {
    run: createSupportTicket,
    needsCustomer: false,
    auditClear: ["category", "priority"],
  },
};

export function parseToolInput(name: ToolName, args: unknown) {
  return (toolCatalog[name].input as z.ZodType).safeParse(args);
}
