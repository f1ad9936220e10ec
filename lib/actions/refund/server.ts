import "server-only";
// How the refund kind's tools run on the gateway (the declarations are ./tools.ts): prepare_refund derives the
// proposal under the order's lock (./prepare-refund.ts), get_refund_status reads it and may wait
// for a change first. auditClear: the argument fields that may stay in clear in the audit trail.
import type { KindToolHandlers } from "../kind.server";
import { getRefundStatus } from "./get-refund-status";
import { prepareRefund } from "./prepare-refund";
import { waitForProposalChange } from "@/lib/server/proposals/wait-for-proposal-change";
import type { refundKindTools } from "./tools";

export const refundToolHandlers = {
  prepare_refund: { run: prepareRefund, needsCustomer: true, auditClear: ["order_id", "reason"] },
  get_refund_status: {
    run: getRefundStatus,
    wait: waitForProposalChange,
    needsCustomer: true,
    auditClear: ["proposal_id", "wait_seconds"],
  },
} satisfies KindToolHandlers<typeof refundKindTools>;
