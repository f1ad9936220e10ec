import "server-only";
import { randomUUID } from "node:crypto";
import type { ToolOutcome } from "@/lib/domain/agent-protocol";
import { needsCustomer } from "@/lib/domain/confirmation-policy";
import { proposalStatus } from "@/lib/domain/proposal-state";
import { sql, type Sql } from "@/lib/server/db/sql";
import { appBaseUrl } from "@/lib/server/env";
import { confirmTokenHash, newConfirmToken } from "./confirm-token";

/** How long a confirm link lives (never past the proposal's own expiry). */
export const CONFIRM_LINK_MINUTES = 15;

/** The confirm page of a token: `${APP_URL}/confirm/<token>`, the link the agent shows the customer. */
export const confirmUrl = (token: string) => `${appBaseUrl()}/confirm/${token}`;

/**
 * A new one-time confirm link for a proposal that awaits its customer (docs/agent-api.md, "Customer confirmation"):
 * pending, its policy needs the customer, not confirmed yet, and the verified end user (`sub`) is the proposal's
 * customer. Stored as the token's SHA-256 with the proposal's hash now and the `sub`; null when no link is due.
 */
export async function issueConfirmLink(
  tx: Sql,
  p: { tenantId: string; proposalId: string; sub: string },
  now = new Date(),
): Promise<{ url: string; expiresAt: Date } | null> {
  const { rows } = await sql<{ hash: string; confirmation: string; expiresAt: Date; confirmed: boolean }>`
    SELECT p."hash", p."confirmation", p."expiresAt",
           EXISTS (SELECT 1 FROM "CustomerConfirmation" c WHERE c."proposalId" = p."id" AND c."decision" = 'confirmed') AS "confirmed"
      FROM "Proposal" p
     WHERE p."id" = ${p.proposalId}::uuid AND p."tenantId" = ${p.tenantId}::uuid
       AND p."status" = ${proposalStatus.pendingApproval}::"ProposalStatus"
       AND COALESCE(p."customerId", p."endUserId") = ${p.sub}`.execute(tx);
  const row = rows[0];
  if (!row || !needsCustomer(row.confirmation) || row.confirmed || row.expiresAt <= now) return null;
  const token = newConfirmToken();
  const expiresAt = new Date(Math.min(now.getTime() + CONFIRM_LINK_MINUTES * 60_000, row.expiresAt.getTime()));
  await sql`
    INSERT INTO "CustomerConfirmation" ("id", "tenantId", "proposalId", "tokenHash", "proposalHash", "endUserSub", "expiresAt", "createdAt")
    VALUES (${randomUUID()}::uuid, ${p.tenantId}::uuid, ${p.proposalId}::uuid, ${confirmTokenHash(token)}, ${row.hash}, ${p.sub},
            (${expiresAt.toISOString()}::timestamptz AT TIME ZONE 'UTC'), (${now.toISOString()}::timestamptz AT TIME ZONE 'UTC'))`.execute(
    tx,
  );
  return { url: confirmUrl(token), expiresAt };
}

/**
 * An `approval_required` answer for a proposal that awaits its customer gains `confirm_url` (and when it stops
 * working): the link the agent shows the customer, who confirms or declines the exact hashed action there. Every
 * other answer is returned as it is. The link is in the answer only — never in the audit trail.
 */
export async function withConfirmLink(
  tx: Sql,
  tenantId: string,
  sub: string | null,
  outcome: ToolOutcome,
  proposal: { id: string } | null | undefined,
): Promise<ToolOutcome> {
  if (outcome.code !== "approval_required" || !("result" in outcome) || !proposal || !sub) return outcome;
  const link = await issueConfirmLink(tx, { tenantId, proposalId: proposal.id, sub });
  if (!link) return outcome;
  return {
    ...outcome,
    result: {
      ...outcome.result,
      confirm_url: link.url,
      confirm_expires_at: link.expiresAt.toISOString(),
      next_step:
        "Show the customer confirm_url: they confirm or decline exactly this action there. Do not ask them to confirm in the chat; a 'yes' in the chat is not a confirmation.",
    },
  };
}
