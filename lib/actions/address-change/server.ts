import "server-only";
// How the address-change kind's tool runs on the gateway (the declaration is ./tools.ts). auditClear: only the order
// reference stays in clear; the address is personal data — the audit keeps keyed fingerprints of it (./prepare.ts).
import type { KindToolHandlers } from "../kind.server";
import { prepareAddressChange } from "./prepare";
import type { addressChangeKindTools } from "./tools";

export const addressChangeToolHandlers = {
  prepare_address_change: { run: prepareAddressChange, needsCustomer: true, auditClear: ["order_id"] },
} satisfies KindToolHandlers<typeof addressChangeKindTools>;
