import "server-only";
// How the contact-change kind's tool runs on the gateway (the declaration is ./tools.ts). auditClear: only the field
// stays in clear; the new value is personal data — the audit keeps keyed fingerprints of both values (./prepare.ts).
import type { KindToolHandlers } from "../kind.server";
import { prepareContactChange } from "./prepare";
import type { contactChangeKindTools } from "./tools";

export const contactChangeToolHandlers = {
  prepare_contact_change: { run: prepareContactChange, needsCustomer: true, auditClear: ["field"] },
} satisfies KindToolHandlers<typeof contactChangeKindTools>;
