import "server-only";
// The server half of the seam (./kind.ts holds the declarations): how a kind's tools run on the gateway. A kind
// gives one handler per tool it declares; the gateway (lib/server/agent/tool-handlers.ts) runs them in its one
// transaction, with the same authentication, budgets, audit and answer envelope for every kind.
import type { Selectable } from "kysely";
import type { Proposal } from "@/lib/server/db/generated/client";
import type { ActionKindTools } from "./kind";
import type { ToolHandler } from "@/lib/server/agent/tool-context";
import type { Tx } from "@/lib/server/db/client";
import type { DB } from "@/lib/server/db/sql";
import type { LockedProposal } from "@/lib/server/proposals/proposal-guards";
import type { OutsideProposal } from "@/lib/server/proposals/revalidation-outside";
import type { ConfirmationPolicy } from "@/lib/domain/confirmation-policy";
import type { z } from "zod";
import type { ToolAnnotations } from "@/lib/schemas/agent-inputs";

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
  revalidate(tx: Tx, proposal: LockedProposal, now: Date, outside?: unknown): Promise<string | null>;
  /**
   * What `revalidate` needs from outside our database (a declared action's re-derive on the shop), fetched before
   * the proposal's lock and the transaction, so a slow system of record holds no pooled connection and no lock
   * meanwhile; its result reaches `revalidate` as `outside`, which must still check under the lock whatever it
   * depended on. Asked by the approval, a customer's confirmation and the action-endpoint executor. Optional.
   */
  revalidateOutside?: (proposal: OutsideProposal) => Promise<unknown>;
  /**
   * How an approved proposal of the kind takes effect, exactly once: `execute` (the execute job: revalidate, commit
   * the idempotency key, send) and `reconcile` (an execution in doubt: look it up by its key, never a blind re-send).
   * The refund's is the payment provider's chain; a kind the shop carries out builds its own with
   * `actionEndpointExecutor` (lib/server/executions/action-endpoint-executor.ts).
   */
  executor: KindExecutor;
  /**
   * What reviewers read as the action on the generic proposal page, queue row and approve dialog — every value from
   * the proposal's hashed params (never today's rows). Absent for a kind with pages of its own (the refund's).
   */
  review?: (params: unknown) => KindReview;
  /**
   * The action as the agent is told it (get_action_status's `action`, for every kind): exactly the stored values a
   * person approves — the hashed params, or a refund's hashed columns — in the words of the kind's prepare answer.
   */
  agentAction(proposal: StoredProposal): Record<string, unknown>;
  /**
   * A kind carried out in two steps declares its second here (docs/action-kinds.md, "Steps"): a follow-up proposal
   * (its `parentId` is this kind's proposal) is authorised by the parent's approval only when the parent's kind says
   * the follow-up is exactly what its hashed params approved. The core asks this before the follow-up's effect.
   */
  followUp?: { authorises(parent: ProposalRow, child: ProposalRow): boolean };
  /**
   * A per-reviewer limit beyond the money cap (the bulk message's daily recipients), asked at approval under the
   * proposal's lock after step-up: a refusal (`limit_exceeded` with its details) or null. Optional.
   */
  approvalLimit?(
    tx: Tx,
    proposal: LockedProposal,
    approverId: string,
    now: Date,
  ): Promise<{ message: string; details: Record<string, unknown> } | null>;
  /**
   * Who must confirm the kind's proposals (docs/action-kinds.md, "Who confirms"): the floor — reviewers, the customer
   * or both — and, per proposal, whether its hashed params also need a reviewer (an address change to another
   * country). Tenant policy may raise it, never lower it. Decided at prepare and hashed (v6 / v7). Absent: reviewers.
   */
  confirmation?: ConfirmationPolicy;
  /**
   * Whether this proposal's hashed params ask reviewers to re-authenticate for every approval (an admin-declared
   * action's `policy.stepUp`): the open session's step-up window does not count. Optional; absent: the tenant's
   * approval session window applies, as for every kind.
   */
  freshStepUp?(params: unknown): boolean;
};

/**
 * A tool whose existence depends on the tenant's data, not on code (an admin-declared action): listed per tenant by
 * its kind (`KindDynamicTools.list`), published in every format like a catalogue tool, validated by its own strict
 * schema and run by its own handler on the gateway (same transaction, budgets, audit and envelope). The gateway never
 * lets one shadow a built-in tool (lib/server/agent/dynamic-tools.ts).
 */
export type DynamicTool = {
  name: string;
  title: string;
  description: string;
  annotations: ToolAnnotations;
  /** Strict JSON schema of its arguments (every property required, no other property). */
  inputSchema: Record<string, unknown>;
  /** Validates a call's arguments: the data, or the zod issues (answered as invalid_arguments). */
  parse(args: unknown): { success: true; data: unknown } | { success: false; error: { issues: z.core.$ZodIssue[] } };
  handler: ToolHandler;
};

/** A kind whose tools are per tenant (registry.server.ts lists each such kind once). */
export type KindDynamicTools = { list(tenantId: string): Promise<DynamicTool[]> };

/** A proposal row as stored. */
export type ProposalRow = Proposal;

/** A stored proposal as a status answer reads it: its row, and its order's number when it concerns an order. */
export type StoredProposal = Selectable<DB["Proposal"]> & { orderRef: string | null };

/**
 * One labelled value of the action (label: messages `kinds.<kind>.fields.<key>`, or `label` when the kind's params
 * carry the label per locale — an admin-declared action's), before → after where it changes.
 */
export type ReviewField = {
  key: string;
  before: string | null;
  after: string | null;
  changed: boolean;
  label?: { en: string; es: string };
};

export type KindReview = {
  fields: ReviewField[];
  /** The values of the one-sentence confirmation (messages `kinds.<kind>.confirm`). */
  sentence: Record<string, string>;
  /** One line for lists (the queue). */
  summary: string;
};

/** What the execute and reconcile jobs call for a proposal of the kind. */
export type KindExecutor = {
  execute(proposalId: string): Promise<string>;
  reconcile(executionId: string): Promise<string>;
};
