import "server-only";
// The bulk message's revalidation (at approval and before execution, under the proposal's lock): the segment must
// still be the version the proposal hashed (an admin's change is a new version → `segment_changed`), and the audience
// it selects today must not have moved beyond the hashed tolerance (`audience_changed`; 0 % = any change of the
// digest). docs/action-kinds.md, "The bulk message".
import type { Tx } from "@/lib/server/db/client";
import { sqlOf } from "@/lib/server/db/sql";
import type { LockedProposal } from "@/lib/server/proposals/proposal-guards";
import { audienceOf, beyondTolerance, currentSegment } from "./audience";
import type { BulkMessageParams, BulkMessageSource } from "./prepare";

export const paramsOf = (p: { params: unknown }) => p.params as BulkMessageParams;

/** Today's recipients of the proposal's segment version and channel, or the reason there are none to compare. */
export async function currentRecipients(
  tx: Tx,
  p: { tenantId: string; params: unknown },
): Promise<{ ids: string[] } | { problem: string }> {
  const params = paramsOf(p);
  const newest = await currentSegment(sqlOf(tx), p.tenantId, params.segment.slug);
  if (!newest) return { problem: "segment_not_found" };
  if (newest.id !== params.segment.id || newest.version !== params.segment.version)
    return { problem: "segment_changed" };
  const recipients = await audienceOf(sqlOf(tx), p.tenantId, newest.filter, params.channel);
  return { ids: recipients.map((r) => r.id) };
}

export async function revalidate(tx: Tx, p: LockedProposal): Promise<string | null> {
  const source = p.source as BulkMessageSource | null;
  if (!source || !Array.isArray(source.recipients)) return "audience_changed";
  const now = await currentRecipients(tx, p);
  if ("problem" in now) return now.problem;
  return beyondTolerance(source.recipients, now.ids, paramsOf(p).tolerancePercent) ? "audience_changed" : null;
}
