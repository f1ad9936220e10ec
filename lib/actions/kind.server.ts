import "server-only";
// The server half of the seam (./kind.ts holds the declarations): how a kind's tools run on the gateway. A kind
// gives one handler per tool it declares; the gateway (lib/server/agent/tool-handlers.ts) runs them in its one
// transaction, with the same authentication, budgets, audit and answer envelope for every kind.
import type { ActionKindTools } from "./kind";
import type { ToolHandler } from "@/lib/server/agent/tool-context";
import type { Tx } from "@/lib/server/db/client";
import type { LockedProposal } from "@/lib/server/proposals/proposal-guards";

/** One handler for each tool the kind declares, and no other. */
export type KindToolHandlers<K extends ActionKindTools> = { [Name in keyof K["tools"]]: ToolHandler };

/**
 * What the core asks of a kind about one of its proposals (docs/action-kinds.md). The core (approval today) looks a
 * proposal's kind up in the registry (`kindBehaviourOf`) and never names a kind itself.
 */
export type KindBehaviour = {
  /**
   * Re-derive from the system of record, under the proposal's lock: why the proposal no longer matches what it was
   * prepared from (a stable reason: `order_cancelled`, `recipient_changed`…), or null when it still does. A
   * non-null answer invalidates the proposal.
   */
  revalidate(tx: Tx, proposal: LockedProposal, now: Date): Promise<string | null>;
};
