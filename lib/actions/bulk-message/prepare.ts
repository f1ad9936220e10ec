import "server-only";
// prepare_bulk_message (the kind's derive, docs/action-kinds.md "The bulk message"): under the segment's row lock (its
// newest version, FOR UPDATE: no order is involved, so there is no order lock to come first; concurrent prepares of one
// segment take turns), the audience is computed from the tenant's orders — the customers the segment's filter selects,
// once each, with a contact on the channel. Refusals: an unknown segment (another tenant's is the same answer), an
// empty audience, one over the daily recipients cap (no reviewer could approve it), no action endpoint. The hashed
// params are what reviewers read: the segment (id, slug, version, name), the channel, the exact text and its length,
// the audience (count, a masked sample of five, the digest of the recipients' ids), the send window, the tolerance.
// The source keeps the recipients' ids (hashed too), from which the batches are cut at execution. Policy: one
// reviewer; two at or above the tenant's recipients threshold.
import canonicalize from "canonicalize";
import { failure, type ToolOutcome } from "@/lib/domain/agent-protocol";
import { MAX_WAIT_SECONDS } from "@/lib/schemas/agent-inputs";
import type { HandlerResult, ToolContext } from "@/lib/server/agent/tool-context";
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
import {
  bulkPolicyOf,
  selectAudience,
  maskedSample,
  MAX_AUDIENCE,
  recipientsDigest,
  type SegmentRow,
} from "./audience";
import { BULK_MESSAGE_KIND, type BulkMessageChannel, type PrepareBulkMessageInput } from "./tools";

/** The hashed params of a bulk message: exactly what the reviewers approve. */
export type BulkMessageParams = {
  segment: { id: string; slug: string; version: number; name: string };
  channel: BulkMessageChannel;
  text: string;
  textLength: number;
  /** `withoutPhone` (sms only): customers of the segment skipped for having no phone number on record. */
  audience: { count: number; sample: string[]; digest: string; withoutPhone?: number };
  /** When the shop may deliver it: hours of the day in the tenant's time zone. */
  window: { startHour: number; endHour: number; timeZone: string };
  /** How far the audience may move before execution (percent of `count`; 0 = not at all). */
  tolerancePercent: number;
};

/** The hashed source: the recipients (customer ids, code-unit order) the digest is over. */
export type BulkMessageSource = { recipients: string[] };

/** The segment's newest version, row-locked for the rest of the transaction. */
async function lockSegment(tx: Sql, tenantId: string, slug: string): Promise<SegmentRow | null> {
  const { rows } = await sql<SegmentRow>`
    SELECT "id", "slug", "version", "name", "filter" FROM "Segment"
     WHERE "tenantId" = ${tenantId}::uuid AND "slug" = ${slug}
     ORDER BY "version" DESC LIMIT 1 FOR UPDATE`.execute(tx);
  return rows[0] ?? null;
}

/** The one answer for a segment the tenant does not have (never declared, or another tenant's). */
export function segmentNotFound(slug: string): ToolOutcome {
  return failure(
    "not_found",
    `No segment ${JSON.stringify(slug)} is declared for this shop. Ask which segment is meant; admins declare segments in Admin → Segments.`,
    { segment: slug, reason: "unknown_segment" },
  );
}

export async function prepareBulkMessage(
  tx: Sql,
  input: PrepareBulkMessageInput,
  ctx: ToolContext,
): Promise<HandlerResult> {
  if (!ctx.customerId) throw new Error("prepare_bulk_message needs a verified end user");
  const { tenantId } = ctx.caller;
  const segment = await lockSegment(tx, tenantId, input.segment);
  const audit = { segment: input.segment, channel: input.channel, textLength: input.text.length };
  if (!segment) return { outcome: segmentNotFound(input.segment), audit };
  const refuse = (code: "permission_denied" | "limit_exceeded", message: string, details: object) => ({
    outcome: failure(code, message, { segment: segment.slug, channel: input.channel, ...details }),
    audit,
  });

  const { recipients, withoutContact } = await selectAudience(tx, tenantId, segment.filter, input.channel);
  if (recipients.length === 0) {
    return refuse(
      "permission_denied",
      input.channel === "sms"
        ? `No customer of segment ${JSON.stringify(segment.slug)} has a phone number on record, so nobody would receive an SMS. Tell the staff member; e-mail may reach them.`
        : `Segment ${JSON.stringify(segment.slug)} has no customer with an e-mail address today, so nobody would receive it. Tell the staff member.`,
      {
        reason: "empty_audience",
        recipients: 0,
        ...(input.channel === "sms" ? { without_phone: withoutContact } : {}),
      },
    );
  }
  const policy = await bulkPolicyOf(tx, tenantId);
  if (recipients.length > MAX_AUDIENCE) {
    return refuse(
      "limit_exceeded",
      `Segment ${JSON.stringify(segment.slug)} has ${recipients.length} recipients; one message may address at most ${MAX_AUDIENCE}. Ask an admin to narrow the segment.`,
      { reason: "audience_too_large", recipients: recipients.length, max: MAX_AUDIENCE },
    );
  }
  if (policy.dailyRecipientsCap !== null && recipients.length > policy.dailyRecipientsCap) {
    return refuse(
      "limit_exceeded",
      `Segment ${JSON.stringify(segment.slug)} has ${recipients.length} recipients, more than one reviewer may approve in a day (${policy.dailyRecipientsCap}). Ask an admin to narrow the segment.`,
      { reason: "over_daily_recipients_cap", recipients: recipients.length, cap: policy.dailyRecipientsCap },
    );
  }
  if (!(await hasActionEndpoint(tx, tenantId))) {
    return refuse(
      "permission_denied",
      "This shop has not connected bulk messages to the assistant yet (no action endpoint); nothing can be sent.",
      { reason: "action_endpoint_not_configured" },
    );
  }

  const ids = recipients.map((r) => r.id);
  const params: BulkMessageParams = {
    segment: { id: segment.id, slug: segment.slug, version: segment.version, name: segment.name },
    channel: input.channel,
    text: input.text,
    textLength: input.text.length,
    audience: {
      count: ids.length,
      sample: maskedSample(recipients),
      digest: recipientsDigest(ids),
      // An SMS skips the customers with no phone on record: the reviewers see how many.
      ...(input.channel === "sms" ? { withoutPhone: withoutContact } : {}),
    },
    window: { startHour: policy.windowStartHour, endHour: policy.windowEndHour, timeZone: policy.timeZone },
    tolerancePercent: policy.tolerancePercent,
  };
  const source: BulkMessageSource = { recipients: ids };
  const subject = { type: "segment", ref: segment.slug };
  const now = new Date();
  const pending = await pendingProposalOf(tx, tenantId, BULK_MESSAGE_KIND, subject);
  // Asked again while it awaits review with the same text, channel and audience: the same proposal.
  if (pending && pending.expiresAt > now && canonicalize(pending.params) === canonicalize(params)) {
    return {
      outcome: approvalRequired(pending, params, now),
      proposal: { id: pending.id, hash: pending.hash },
      audit: { ...audit, reused: true },
    };
  }
  const kindPolicy = await readKindPolicy(tx, tenantId);
  const [rejected] = await rejectionsInCooldown(
    tx,
    tenantId,
    BULK_MESSAGE_KIND,
    subject,
    kindPolicy.rejectionCooldownMinutes,
    now,
  );
  if (rejected) {
    return {
      ...cooldownRefusal(
        rejected,
        kindPolicy.rejectionCooldownMinutes,
        `a message to segment ${JSON.stringify(segment.slug)}`,
        { segment: segment.slug },
      ),
      audit: { ...audit, cooldown: true },
    };
  }
  // Expired but not yet swept, or another text / channel / audience: the new proposal replaces it.
  if (pending) await replacePending(tx, pending.id, "replaced_by_new_request");

  const proposal = await insertKindProposal(tx, {
    tenantId,
    kind: BULK_MESSAGE_KIND,
    tool: "prepare_bulk_message",
    subject,
    params,
    source,
    reason: "bulk_message",
    orderId: null,
    // Who asked (the verified end user of the conversation): get_action_status answers them, and only them.
    customerId: ctx.customerId,
    orderNumber: null,
    requester: { agentKeyId: ctx.caller.keyId },
    channelId: ctx.caller.channelId,
    endUserId: ctx.customerId,
    traceId: ctx.traceId,
    requiredApprovals: requiredApprovalsFor(ids.length, policy.recipientsThreshold),
    policy: kindPolicy,
    supersedesId: pending?.id ?? null,
    now,
  });
  return {
    outcome: approvalRequired(proposal, params, now),
    proposal: { id: proposal.id, hash: proposal.hash },
    audit: { ...audit, recipients: ids.length, reused: false, supersedes: pending?.id ?? null },
  };
}

/** One reviewer; two at or above the tenant's recipients threshold (as the money threshold: "at or above"). */
export const requiredApprovalsFor = (count: number, threshold: number) => (count >= threshold ? 2 : 1);

/** The send window as one line: "09:00–20:00 (Europe/Madrid)". */
export const windowLine = (w: BulkMessageParams["window"]) =>
  `${String(w.startHour).padStart(2, "0")}:00–${String(w.endHour).padStart(2, "0")}:00 (${w.timeZone})`;

/** The message as prepare_bulk_message's answer and get_action_status name it (hashed params only). */
export function agentAction(params: BulkMessageParams) {
  return {
    segment: params.segment.slug,
    channel: params.channel,
    text: params.text,
    text_length: params.textLength,
    recipients: params.audience.count,
    ...(params.audience.withoutPhone !== undefined ? { without_phone: params.audience.withoutPhone } : {}),
    sample: params.audience.sample,
    send_window: windowLine(params.window),
  };
}

function approvalRequired(
  p: Pick<KindProposal, "id" | "hash" | "expiresAt" | "requiredApprovals">,
  params: BulkMessageParams,
  now: Date,
): ToolOutcome {
  return kindApprovalRequired(
    p,
    BULK_MESSAGE_KIND,
    agentAction(params),
    `People must approve this message before anything is sent. Tell the staff member it awaits review, how many customers it reaches and that it is sent within the window. To learn the decision, call get_action_status with wait_seconds: ${MAX_WAIT_SECONDS}. Do not call prepare_bulk_message again unless the text, channel or segment changes.`,
    now,
  );
}
