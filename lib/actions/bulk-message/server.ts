import "server-only";
// How the bulk message kind's tool runs on the gateway (the declaration is ./tools.ts). auditClear: the segment's slug
// and the channel stay in clear; the text is free text, scrubbed by the audit writer like any other. The requester is
// the verified end user of the conversation (get_action_status answers them).
import type { KindToolHandlers } from "../kind.server";
import { prepareBulkMessage } from "./prepare";
import type { bulkMessageKindTools } from "./tools";

export const bulkMessageToolHandlers = {
  prepare_bulk_message: {
    run: prepareBulkMessage,
    needsCustomer: true,
    auditClear: ["segment", "channel"],
  },
} satisfies KindToolHandlers<typeof bulkMessageKindTools>;
