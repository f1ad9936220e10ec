// GET /api/inbox: "waiting for you" (docs/design.md "Inbox"). Written with `zod/mini`: the shell's count
// validates the answer in the browser (loaded with the first refresh, not with the page).
import * as z from "zod/mini";
import { pendingCountDto } from "./proposal-dto";

const iso = z.string();

/** A two-approval proposal that another reviewer approved and this reviewer may approve second. */
export const secondApprovalItemDto = z.object({
  proposalId: z.string(),
  /** The action kind: a refund has its amount; another kind is named by its kind (its page shows the action). */
  kind: z.string(),
  orderNumber: z.string(),
  amountMinor: z.nullable(z.int()),
  currency: z.nullable(z.string()),
  approvals: z.int(),
  requiredApprovals: z.int(),
  /** Who approved so far (names). */
  approvedBy: z.array(z.string()),
  expiresAt: iso,
});
export type SecondApprovalItem = z.infer<typeof secondApprovalItemDto>;

/** An admin-level change or a policy loosening that this admin's approval would count for. */
export const adminChangeItemDto = z.object({
  id: z.string(),
  kind: z.enum(["admin_change", "policy_change"]),
  /** What an admin change does (codes of lib/domain/admin-governance.ts AdminChangeWhat). */
  what: z.array(z.string()),
  /** The policy version (policy changes). */
  version: z.nullable(z.int()),
  proposedBy: z.nullable(z.string()),
  proposedAt: iso,
  expiresAt: z.nullable(iso),
});
export type AdminChangeItem = z.infer<typeof adminChangeItemDto>;

/** An execution whose outcome is unknown now (the executions overview's definition of in doubt), of any kind. */
export const inDoubtItemDto = z.object({
  executionId: z.string(),
  proposalId: z.string(),
  /** The action kind: a refund has its amount; another kind is named by its kind. */
  kind: z.string(),
  orderNumber: z.string(),
  amountMinor: z.nullable(z.int()),
  currency: z.nullable(z.string()),
  why: z.enum(["unknown", "stale_sending", "long_pending"]),
  since: iso,
});
export type InDoubtItem = z.infer<typeof inDoubtItemDto>;

/**
 * Each section is null when the viewer's roles do not include it. `count`: everything that waits for *this*
 * person (second approvals + changes for a second admin + in-doubt refunds) — the shell's badge. Pending
 * proposals awaiting a first decision are the queue's (its count is `pending`), not counted here.
 */
export const inboxDto = z.object({
  count: z.int(),
  secondApprovals: z.nullable(z.array(secondApprovalItemDto)),
  pending: z.nullable(pendingCountDto),
  adminChanges: z.nullable(z.array(adminChangeItemDto)),
  inDoubt: z.nullable(z.array(inDoubtItemDto)),
});
export type Inbox = z.infer<typeof inboxDto>;
