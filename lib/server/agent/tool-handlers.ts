import "server-only";
import type { z } from "zod";
import { kindToolHandlers } from "@/lib/actions/registry.server";
import { toolCatalog, type ToolName } from "@/lib/schemas/tools";
import { lookupOrder } from "@/lib/server/orders/lookup-order";
import { getActionStatus } from "@/lib/server/proposals/get-action-status";
import { waitForProposalChange } from "@/lib/server/proposals/wait-for-proposal-change";
import { createSupportTicket } from "@/lib/server/tickets/create-support-ticket";
import type { ToolHandler } from "./tool-context";

export type { ToolHandler } from "./tool-context";

/**
 * How each tool runs: its use case, whether it needs a verified customer (anonymous end users may not look at
 * orders or money), and the argument fields allowed to stay in clear in the audit trail. The gateway's own tools
 * are here; the action kinds' come from their folders through the registry (lib/actions/registry.server.ts).
 */
export const toolHandlers: Record<ToolName, ToolHandler> = {
  lookup_order: { run: lookupOrder, needsCustomer: true, auditClear: ["order_id"] },
  ...kindToolHandlers,
  get_action_status: {
    run: getActionStatus,
    wait: waitForProposalChange,
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
