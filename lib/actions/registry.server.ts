import "server-only";
// How every registered kind's tools run (the declarations are ./registry.ts). One line per kind, in the same
// order; a handler for a tool no kind declares, or a declared tool without a handler, fails the type check and
// lib/actions/registry.test.ts.
import type { DynamicTool, KindBehaviour, KindDynamicTools } from "./kind.server";
import { addressChangeBehaviour } from "./address-change/behaviour";
import { addressChangeToolHandlers } from "./address-change/server";
import { bulkMessageBehaviour } from "./bulk-message/behaviour";
import { bulkMessageToolHandlers } from "./bulk-message/server";
import { cancelOrderBehaviour } from "./cancel-order/behaviour";
import { cancelOrderToolHandlers } from "./cancel-order/server";
import { contactChangeBehaviour } from "./contact-change/behaviour";
import { contactChangeToolHandlers } from "./contact-change/server";
import { declaredActionBehaviour } from "./declared-action/behaviour";
import { declaredActionDynamicTools, declaredActionToolHandlers } from "./declared-action/server";
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
  ...declaredActionToolHandlers,
};

/** What the core asks of each kind about its proposals: one line per kind, every registered kind present (tested). */
export const kindBehaviours: Readonly<Record<string, KindBehaviour>> = {
  refund: refundBehaviour,
  change_shipping_address: addressChangeBehaviour,
  cancel_order: cancelOrderBehaviour,
  update_customer_contact: contactChangeBehaviour,
  create_order: replacementOrderBehaviour,
  send_bulk_message: bulkMessageBehaviour,
  declared_action: declaredActionBehaviour,
};

/** The kinds whose tools are per tenant (an admin-declared action's): one line per such kind. */
const kindDynamicTools: readonly KindDynamicTools[] = [declaredActionDynamicTools];

/**
 * Every dynamic tool of the tenant, each name once (the first kind's wins). The gateway drops any whose name is a
 * built-in tool's (lib/server/agent/dynamic-tools.ts): a dynamic tool never shadows one.
 */
export async function dynamicToolsOf(tenantId: string): Promise<DynamicTool[]> {
  const all = (await Promise.all(kindDynamicTools.map((k) => k.list(tenantId)))).flat();
  return all.filter((t, i) => all.findIndex((o) => o.name === t.name) === i);
}

/**
 * The behaviour of a stored proposal's kind, or null when this release does not know the kind (a proposal written
 * by a newer release, read after a rollback): the caller refuses to act on it, and never guesses.
 */
export function kindBehaviourOf(kind: string): KindBehaviour | null {
  return Object.hasOwn(kindBehaviours, kind) ? kindBehaviours[kind]! : null;
}
