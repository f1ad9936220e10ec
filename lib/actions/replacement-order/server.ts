import "server-only";
// How the replacement-order kind's tool runs on the gateway (the declaration is ./tools.ts). auditClear: the order
// reference and the reason stay in clear (the items' SKUs and quantities are no personal data and are kept as given);
// the shipping address is derived, never in the arguments, and the customer's name and street are scrubbed as known
// personal data.
import type { KindToolHandlers } from "../kind.server";
import { prepareReplacementOrder } from "./prepare";
import type { replacementOrderKindTools } from "./tools";

export const replacementOrderToolHandlers = {
  prepare_replacement_order: {
    run: prepareReplacementOrder,
    needsCustomer: true,
    auditClear: ["order_id", "reason"],
  },
} satisfies KindToolHandlers<typeof replacementOrderKindTools>;
