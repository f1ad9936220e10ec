import "server-only";
import { randomUUID } from "node:crypto";
import {
  computeProposalHash,
  hashedJsonOf,
  hashVersionFor,
  type HashedJson,
  type KindHashInput,
  type ProposalSubject,
} from "@/lib/domain/proposal-hash";
import { proposalExpiresAt } from "@/lib/domain/proposal-policy";
import { proposalStatus } from "@/lib/domain/proposal-state";
import { sql, type Sql } from "@/lib/server/db/sql";
import { notifyReviewersOfProposal } from "@/lib/server/notifications/notify-reviewers";
import { metrics } from "@/lib/server/telemetry/metrics";
import { currentTraceparent } from "@/lib/server/telemetry/tracing";
import { decideConfirmation } from "@/lib/server/confirmations/decide-confirmation";
import type { ProposalRequester } from "./build-proposal";

// The one writer of a kind's proposal (hash v5, docs/action-kinds.md): every kind but the refund derives its
// subject, params and source under the subject's lock and hands them here; this file stores them and hashes exactly
// the stored row. Knows no kind.

export type KindProposalInput = {
  tenantId: string;
  kind: string;
  tool: string;
  subject: ProposalSubject;
  /** The exact values a person approves (shown from here, and only from here). */
  params: Record<string, unknown>;
  /** The snapshot of the system of record the params were derived from. */
  source: Record<string, unknown> | null;
  reason: string;
  /** The order the action concerns (locked by the caller first: the one lock order), when it concerns one. */
  orderId: string | null;
  customerId: string | null;
  /** Shown in lists (the order's number); hashed inside params, stored here for the queue's search. */
  orderNumber: string | null;
  requester: ProposalRequester;
  channelId: string | null;
  endUserId: string | null;
  traceId: string;
  requiredApprovals: number;
  policy: { approvalExpiryMinutes: number; policyVersion: number };
  supersedesId: string | null;
  now: Date;
};

/** The stored proposal, as the kind's answer needs it. */
export type KindProposal = {
  id: string;
  hash: string;
  kind: string;
  subject: ProposalSubject;
  params: { [key: string]: HashedJson };
  reason: string;
  expiresAt: Date;
  requiredApprovals: number;
};

/** Inserts a pending v5 proposal and returns it; the caller holds the subject's lock and decided what it supersedes. */
export async function insertKindProposal(tx: Sql, input: KindProposalInput): Promise<KindProposal> {
  if (!Number.isInteger(input.requiredApprovals) || input.requiredApprovals < 1)
    throw new Error("a proposal needs at least one approval");
  // Only what jsonb keeps exactly (hashedJsonOf refuses floats, Dates, undefined): the stored row re-hashes the same.
  const params = hashedJsonOf(input.params, "params") as { [key: string]: HashedJson };
  const source = input.source === null ? null : (hashedJsonOf(input.source, "source") as { [key: string]: HashedJson });
  // Who must confirm (the kind's floor, raised by the params and the tenant): hashed from v6 when not only reviewers.
  const confirmation = await decideConfirmation(tx, input.tenantId, input.kind, params);
  const version = hashVersionFor("kind", confirmation) as KindHashInput["v"];
  const hashInput: KindHashInput = {
    v: version,
    id: randomUUID(),
    tenantId: input.tenantId,
    kind: input.kind,
    tool: input.tool,
    subject: { type: input.subject.type, ref: input.subject.ref },
    params,
    source,
    reason: input.reason,
    expiresAt: proposalExpiresAt(input.now, input.policy.approvalExpiryMinutes),
    requiredApprovals: input.requiredApprovals,
    policyVersion: input.policy.policyVersion,
    ...(confirmation === "reviewers" ? {} : { confirmation }),
  };
  const hash = computeProposalHash(hashInput);
  const at = new Date().toISOString();
  const agentKeyId = "agentKeyId" in input.requester ? input.requester.agentKeyId : null;
  const staffId = "staffId" in input.requester ? input.requester.staffId : null;
  const { rows } = await sql<{ id: string }>`
    INSERT INTO "Proposal" ("id", "tenantId", "tool", "kind", "subject", "params", "source", "orderId", "customerId", "orderNumber",
                            "requestedByAgentKeyId", "requestedByStaffId", "channelId", "endUserId", "reason", "status", "hash",
                            "expiresAt", "requiredApprovals", "policyVersion", "hashVersion", "confirmation", "supersedesId", "traceId", "traceparent",
                            "createdAt", "updatedAt")
    VALUES (${hashInput.id}::uuid, ${input.tenantId}::uuid, ${input.tool}, ${input.kind}, ${JSON.stringify(hashInput.subject)}::jsonb,
            ${JSON.stringify(params)}::jsonb, ${source === null ? null : JSON.stringify(source)}::jsonb, ${input.orderId}::uuid,
            ${input.customerId}, ${input.orderNumber}, ${agentKeyId}::uuid, ${staffId}::uuid, ${input.channelId}::uuid, ${input.endUserId},
            ${input.reason}, ${proposalStatus.pendingApproval}::"ProposalStatus", ${hash},
            (${hashInput.expiresAt.toISOString()}::timestamptz AT TIME ZONE 'UTC'), ${input.requiredApprovals}::int,
            ${input.policy.policyVersion}::int, ${version}::int, ${confirmation}, ${input.supersedesId}::uuid, ${input.traceId},
            ${currentTraceparent()}, (${at}::timestamptz AT TIME ZONE 'UTC'), (${at}::timestamptz AT TIME ZONE 'UTC'))
    RETURNING "id"`.execute(tx);
  if (rows.length !== 1) throw new Error("proposal insert returned no row");
  metrics().proposals.inc({ kind: input.kind, outcome: "prepared" });
  // A new proposal awaits review, whatever its kind: the reviewers' e-mails, the tenant's Slack message and reviewer
  // webhook are recorded in this transaction (outbox rows + delivery jobs), as for refunds (build-proposal.ts). The
  // messages are built at delivery from the kind's label and the order number, never from the params.
  await notifyReviewersOfProposal(tx, {
    id: hashInput.id,
    tenantId: input.tenantId,
    kind: input.kind,
    hash,
    amountMinor: null,
    currency: null,
    expiresAt: hashInput.expiresAt,
  });
  return {
    id: hashInput.id,
    hash,
    kind: input.kind,
    subject: hashInput.subject,
    params,
    reason: input.reason,
    expiresAt: hashInput.expiresAt,
    requiredApprovals: input.requiredApprovals,
  };
}

/** The tenant's policy values every kind's proposal takes (expiry, version), read in the caller's transaction. */
export async function readKindPolicy(
  tx: Sql,
  tenantId: string,
): Promise<{ approvalExpiryMinutes: number; policyVersion: number; rejectionCooldownMinutes: number }> {
  const { rows } = await sql<{
    approvalExpiryMinutes: number;
    policyVersion: number;
    rejectionCooldownMinutes: number;
  }>`
    SELECT "approvalExpiryMinutes", "policyVersion", "rejectionCooldownMinutes" FROM "Tenant" WHERE "id" = ${tenantId}::uuid`.execute(
    tx,
  );
  if (!rows[0]) throw new Error("tenant not found");
  return rows[0];
}
