import "server-only";
// How every registered kind's tools run (the declarations are ./registry.ts). One line per kind, in the same
// order; a handler for a tool no kind declares, or a declared tool without a handler, fails the type check and
// lib/actions/registry.test.ts.
import type { KindBehaviour } from "./kind.server";
import { addressChangeBehaviour } from "./address-change/behaviour";
import { addressChangeToolHandlers } from "./address-change/server";
import { bulkMessageBehaviour } from "./bulk-message/behaviour";
import { bulkMessageToolHandlers } from "./bulk-message/server";
import { cancelOrderBehaviour } from "./cancel-order/behaviour";
import { cancelOrderToolHandlers } from "./cancel-order/server";
import { contactChangeBehaviour } from "./contact-change/behaviour";
import { contactChangeToolHandlers } from "./contact-change/server";
import { refundBehaviour } from "./refund/behaviour";
import { refundToolHandlers } from "./refund/server";
import { replacementOrderBehaviour } from "./replacement-order/behaviour";
import { replacementOrderToolHandlers } from "./replacement-order/server";

export const kindToolHandlers = {
  ...refundToolHandlers,
  ...addressChangeToolHandlers,
  ...cancelOrderToolHandlers,
  ...contactChangeToolHandlers,
  ...replacementOrderToolHandlers,
  ...bulkMessageToolHandlers,
};

/** What the core asks of each kind about its proposals: one line per kind, every registered kind present (tested). */
export const kindBehaviours: Readonly<Record<string, KindBehaviour>> = {
  refund: refundBehaviour,
  change_shipping_address: addressChangeBehaviour,
  cancel_order: cancelOrderBehaviour,
  update_customer_contact: contactChangeBehaviour,
  create_order: replacementOrderBehaviour,
  send_bulk_message: bulkMessageBehaviour,
};

/**
 * The behaviour of a stored proposal's kind, or null when this release does not know the kind (a proposal written
 * by a newer release, read after a rollback): the caller refuses to act on it, and never guesses.
 */
export function kindBehaviourOf(kind: string): KindBehaviour | null {
  return Object.hasOwn(kindBehaviours, kind) ? kindBehaviours[kind]! : null;
}
