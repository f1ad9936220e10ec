import "server-only";
// prepare_contact_change (the kind's derive, docs/action-kinds.md): under the customer's row lock, for the customer
// the end-user token names (ctx.customerId — the model never picks whose details change). The new value is validated
// (./contact-value.ts); the value on record now is what the change is derived from: the reviewer sees it masked, the
// source keeps its keyed fingerprint (revalidation compares it), the audit keeps keyed fingerprints of both values.
// The system of record is our Customer row as the shop last reported it: its e-mail address and, where known, its phone
// number (E.164; none on record is a change from "none"). An approved change, once the shop carried it out, is written
// there too — which is how a bulk SMS learns the number.
// Policy: always one reviewer.
import { failure, type ToolOutcome } from "@/lib/domain/agent-protocol";
import { MAX_WAIT_SECONDS } from "@/lib/schemas/agent-inputs";
import type { HandlerResult, ToolContext } from "@/lib/server/agent/tool-context";
import { auditFingerprint } from "@/lib/server/audit/fingerprint";
import { sql, type Sql } from "@/lib/server/db/sql";
import { kindApprovalRequired } from "@/lib/server/proposals/agent-answer";
import { insertKindProposal, readKindPolicy, type KindProposal } from "@/lib/server/proposals/insert-kind-proposal";
import {
  cooldownRefusal,
  hasActionEndpoint,
  pendingProposalOf,
  rejectionsInCooldown,
  replacePending,
} from "@/lib/server/proposals/kind-prepare";
import { maskContactValue, normaliseContactValue } from "./contact-value";
import { CONTACT_CHANGE_KIND, type ContactField, type PrepareContactChangeInput } from "./tools";

/** The hashed params of a contact change: exactly what a reviewer approves (the value on record only masked). */
export type ContactChangeParams = {
  customer: { id: string; name: string };
  field: ContactField;
  /** The value on record when prepared, masked (null: none on record). */
  beforeMasked: string | null;
  after: string;
};

/** The hashed source: the keyed fingerprint of the value on record the change was derived from (never the value). */
export type ContactChangeSource = { field: ContactField; before: string | null };

/** A keyed fingerprint of a contact value (compared without case) for the audit trail and the source. */
export const contactFingerprint = (value: string | null) =>
  value === null || value === "" ? null : auditFingerprint(value.toLowerCase());

/** The customer's value of `field` on record (null: none). */
export const contactOnRecord = (c: { email: string; phone: string | null }, field: ContactField): string | null =>
  (field === "email" ? c.email : c.phone) || null;

/** Same value, compared without case (an e-mail's domain is; a re-capitalised address is not a change). */
export const sameContactValue = (a: string | null, b: string | null) =>
  (a ?? "").toLowerCase() === (b ?? "").toLowerCase();

export async function prepareContactChange(
  tx: Sql,
  input: PrepareContactChangeInput,
  ctx: ToolContext,
): Promise<HandlerResult> {
  if (!ctx.customerId) throw new Error("prepare_contact_change needs a verified customer");
  const { tenantId } = ctx.caller;
  // The argument as given is personal data even when it is not valid: the audit writer scrubs it from the stored
  // arguments (auditClear keeps only `field`), on every answer below.
  const given = [input.new_value];
  const checked = normaliseContactValue(input.field, input.new_value);
  if (!checked.ok) {
    return {
      outcome: failure("invalid_arguments", `${checked.message} Ask the customer to correct it.`, {
        problems: [{ path: "$.new_value", expected: checked.expected, message: checked.message }],
      }),
      knownPersonal: given,
    };
  }
  const after = checked.value;
  // Fingerprints made here with the audit key: the writer stores them as they are (madeFingerprints).
  const audit = { field: input.field, after: contactFingerprint(after) };
  // The customer's row, locked first: concurrent prepares for the same customer take turns (one pending proposal).
  const [customer] = (
    await sql<{ id: string; name: string; email: string; phone: string | null }>`
    SELECT c."id", c."name", c."email", c."phone" FROM "Customer" c
     WHERE c."tenantId" = ${tenantId}::uuid AND c."id" = ${ctx.customerId}
       FOR UPDATE`.execute(tx)
  ).rows;
  if (!customer) {
    return {
      outcome: failure(
        "not_found",
        "No customer record was found for the signed-in customer. Ask them to contact support.",
      ),
      audit,
      madeFingerprints: [audit.after],
    };
  }
  const before = contactOnRecord(customer, input.field);
  const knownPersonal = [customer.name, ...given, after, ...(before ? [before] : [])];
  if (sameContactValue(before, after)) {
    return {
      outcome: failure(
        "invalid_arguments",
        `That is already the customer's ${input.field === "email" ? "e-mail address" : "phone number"}; nothing to change.`,
        {
          reason: "value_unchanged",
          problems: [{ path: "$.new_value", expected: "a value other than the one on record", message: "unchanged" }],
        },
      ),
      audit,
      madeFingerprints: [audit.after],
      knownPersonal,
    };
  }
  // Executed on the shop's action endpoint: without one, nothing could ever carry it out — say so now.
  if (!(await hasActionEndpoint(tx, tenantId))) {
    return {
      outcome: failure(
        "permission_denied",
        "This shop has not connected contact changes to the assistant yet; ask the customer to contact support.",
        { reason: "action_endpoint_not_configured" },
      ),
      audit,
      madeFingerprints: [audit.after],
      knownPersonal,
    };
  }

  const subject = { type: "customer", ref: customer.id };
  const now = new Date();
  const pending = await pendingProposalOf(tx, tenantId, CONTACT_CHANGE_KIND, subject);
  if (pending && pending.expiresAt > now) {
    const params = pending.params as unknown as ContactChangeParams;
    // The same change asked again: the same proposal. Another value: the customer corrected it; the new one replaces it.
    if (params.field === input.field && sameContactValue(params.after, after))
      return {
        outcome: approvalRequired(pending, params, now),
        proposal: { id: pending.id, hash: pending.hash },
        audit: { ...audit, reused: true },
        madeFingerprints: [audit.after],
        knownPersonal,
      };
  }
  // The tenant's cool-down after a rejection (as the address change): the same value a reviewer rejected is answered
  // `rejected` with the reviewer's reason until it ends; another value is a new request.
  const policy = await readKindPolicy(tx, tenantId);
  const rejectedRows = await rejectionsInCooldown(
    tx,
    tenantId,
    CONTACT_CHANGE_KIND,
    subject,
    policy.rejectionCooldownMinutes,
    now,
  );
  const rejected = rejectedRows.find((r) => {
    const p = r.params as ContactChangeParams;
    return p.field === input.field && sameContactValue(p.after, after);
  });
  if (rejected) {
    return {
      ...cooldownRefusal(rejected, policy.rejectionCooldownMinutes, "this contact change"),
      audit: { ...audit, cooldown: true },
      madeFingerprints: [audit.after],
      knownPersonal,
    };
  }
  if (pending) await replacePending(tx, pending.id, "replaced_by_new_value");

  const params: ContactChangeParams = {
    customer: { id: customer.id, name: customer.name },
    field: input.field,
    beforeMasked: maskContactValue(input.field, before),
    after,
  };
  const source: ContactChangeSource = { field: input.field, before: contactFingerprint(before) };
  const proposal = await insertKindProposal(tx, {
    tenantId,
    kind: CONTACT_CHANGE_KIND,
    tool: "prepare_contact_change",
    subject,
    params,
    source,
    reason: "customer_request",
    orderId: null,
    customerId: customer.id,
    orderNumber: null,
    requester: { agentKeyId: ctx.caller.keyId },
    channelId: ctx.caller.channelId,
    endUserId: ctx.customerId,
    traceId: ctx.traceId,
    // A contact detail is how the shop reaches (and recovers the account of) the customer: always a person's look.
    requiredApprovals: 1,
    policy,
    supersedesId: pending?.id ?? null,
    now,
  });
  return {
    outcome: approvalRequired(proposal, params, now),
    proposal: { id: proposal.id, hash: proposal.hash },
    audit: { ...audit, before: source.before, reused: false, supersedes: pending?.id ?? null },
    madeFingerprints: [audit.after, source.before],
    knownPersonal,
  };
}

/** The change as prepare_contact_change's answer and get_action_status name it (hashed params only). */
export function agentAction(params: ContactChangeParams) {
  return { customer_id: params.customer.id, field: params.field, before: params.beforeMasked, after: params.after };
}

/** The `approval_required` answer: the exact change a person will be asked to approve. */
function approvalRequired(
  p: Pick<KindProposal, "id" | "hash" | "expiresAt" | "requiredApprovals">,
  params: ContactChangeParams,
  now: Date,
): ToolOutcome {
  return kindApprovalRequired(
    p,
    CONTACT_CHANGE_KIND,
    agentAction(params),
    `A person must approve this contact change before the shop changes anything. Tell the customer it awaits review and read the new value back to them. To learn the decision, call get_action_status with wait_seconds: ${MAX_WAIT_SECONDS} (it answers as soon as a reviewer decides). Do not call prepare_contact_change again unless the customer gives another value.`,
    now,
  );
}
