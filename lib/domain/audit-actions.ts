// The core's audit action codes auditors can pick from (the stored codes stay exactly as written by the use
// cases; plain names live in messages under audit.actions / audit.outcomes, keyed by these codes with ":"
// written as "_"). The action kinds' codes — their tools' calls and the events they declare — are not here: the
// search picker (lib/actions/audit-picker.ts) adds them from the registry, so a new kind touches no core list.
// A code not listed (a tool an agent invented) is still searchable by URL.
import { errorCodes, successCodes } from "./outcome";

export const auditActionGroups = {
  agent: [
    "tool:lookup_order",
    "tool:get_action_status",
    "tool:create_support_ticket",
    "tool-call",
    "agent:key_refused",
  ],
  proposal: [
    "proposal:approve",
    "proposal:reject",
    "proposal:edit",
    "proposal:reprepare",
    "proposal:expire",
    "proposal:invalidate",
    "proposal:withdraw",
    "proposal:claim",
    "proposal:release_claim",
    "proposal:comment",
    "proposal:customer_confirmed",
    "proposal:customer_declined",
  ],
  orders: ["orders:upsert", "orders:batch", "payments:external_refund", "payments:dispute"],
  execution: [
    "execution:send",
    "execution:pending",
    "execution:succeeded",
    "execution:failed",
    "execution:unknown",
    "execution:resend",
    "execution:revalidate",
    "execution:check_now",
    "execution:reconcile",
    "execution:duplicate_detected",
    "execution:awaiting_payout",
    "execution:payout_recorded",
    "execution:payout_confirmed",
  ],
  access: [
    "auth:sign_in",
    "auth:complete_setup",
    "auth:passkey_register",
    "account:rename_passkey",
    "account:remove_passkey",
    "access:denied",
  ],
  admin: [
    "admin:invite_staff",
    "admin:update_staff",
    "admin:reissue_setup_link",
    "admin:issue_agent_key",
    "admin:revoke_agent_key",
    "admin:issue_integration_key",
    "admin:revoke_integration_key",
    "admin:create_channel",
    "admin:rotate_channel_secret",
    "admin:set_review_webhook",
    "admin:set_slack_webhook",
    "admin:test_notification",
    "admin:resend_notification",
    "admin:propose_policy",
    "admin:approve_policy",
    "admin:reject_policy",
    "admin:propose_change",
    "admin:approve_change",
    "admin:reject_change",
    "admin:cancel_change",
    "admin:operator_grant_admin",
    "admin:add_witness",
    "admin:set_witness_quorum",
    "admin:set_confirmation_policy",
    "admin:remove_witness",
    "operator:create_tenant",
    "admin:set_provider_connection",
    "admin:remove_provider_connection",
    "operator:reseal_provider_connection",
    "admin:set_action_endpoint",
    "admin:remove_action_endpoint",
    "operator:reseal_action_endpoint",
    "admin:segment_version",
    "admin:declare_action",
    "admin:approve_declared_action",
    "admin:reject_declared_action",
    "admin:cancel_declared_action",
    "admin:retire_declared_action",
    "webhook:delivered",
    "webhook:failed",
  ],
  audit: [
    "audit:search",
    "audit:export",
    "audit:view_trace",
    "audit:export_trace",
    "audit:evidence_pack",
    "audit:legal_hold",
    "audit:legal_hold_release",
    "audit:purge",
    "audit:chain_broken",
  ],
} as const;

export type AuditActionGroup = keyof typeof auditActionGroups;
export type AuditAction = (typeof auditActionGroups)[AuditActionGroup][number];
export const auditActions: readonly AuditAction[] = Object.values(auditActionGroups).flat();

/** Outcome codes written to the trail (lib/domain/outcome.ts, plus execution and lookup results). */
export const auditOutcomes = [...successCodes, "found", "succeeded", "failed", "unknown", ...errorCodes] as const;

/** The messages key of a code (next-intl reads "." as nesting, so "proposal:reject" → "proposal_reject"). */
export const auditCodeKey = (code: string): string => code.replace(/[^a-z0-9_]/gi, "_");
