import "server-only";
// What the core asks of the bulk message kind about one of its proposals (../kind.server.ts, KindBehaviour).
// revalidate (./revalidate.ts): the segment version and the audience against the hashed ones. executor
// (./executor.ts): keyed batches on the action endpoint. review: the segment, channel, count, masked sample, exact
// text and window, from the hashed params only. approvalLimit: the reviewer's daily recipients cap, like the money
// cap (approve-proposal.ts): the recipients of the bulk messages they approved today (the tenant's day) plus this
// one's may not exceed the tenant's cap.
import { sql, sqlOf } from "@/lib/server/db/sql";
import type { KindBehaviour, KindReview } from "../kind.server";
import { bulkPolicyOf } from "./audience";
import { bulkMessageExecutor } from "./executor";
import { agentAction, windowLine, type BulkMessageParams } from "./prepare";
import { paramsOf, revalidate } from "./revalidate";
import { BULK_MESSAGE_KIND } from "./tools";

function review(raw: unknown): KindReview {
  const params = raw as BulkMessageParams;
  const segment = `${params.segment.name} (${params.segment.slug}, v${params.segment.version})`;
  const window = windowLine(params.window);
  const count = String(params.audience.count);
  return {
    fields: [
      { key: "segment", before: null, after: segment, changed: false },
      { key: "channel", before: null, after: params.channel, changed: false },
      { key: "recipients", before: null, after: count, changed: true },
      { key: "sample", before: null, after: params.audience.sample.join(", "), changed: false },
      { key: "text", before: null, after: params.text, changed: true },
      { key: "textLength", before: null, after: String(params.textLength), changed: false },
      { key: "window", before: null, after: window, changed: false },
      ...(params.audience.withoutPhone !== undefined
        ? [{ key: "withoutPhone", before: null, after: String(params.audience.withoutPhone), changed: false }]
        : []),
    ],
    sentence: { count, channel: params.channel, segment: params.segment.slug, text: params.text, window },
    summary: `${params.segment.slug}: ${count} × ${params.channel}`,
  };
}

const approvalLimit: NonNullable<KindBehaviour["approvalLimit"]> = async (tx, p, approverId, now) => {
  const policy = await bulkPolicyOf(sqlOf(tx), p.tenantId);
  if (policy.dailyRecipientsCap === null) return null;
  // Serialized per reviewer with the money cap's lock: two approvals arriving together cannot both fit.
  await sql`SELECT 1 FROM pg_advisory_xact_lock(hashtext('approval-daily-cap'), hashtext(${approverId}))`.execute(
    sqlOf(tx),
  );
  const [today] = (
    await sql<{ total: bigint | null }>`
    SELECT SUM((p."params" #>> '{audience,count}')::bigint) AS total
      FROM "Approval" a JOIN "Proposal" p ON p.id = a."proposalId"
     WHERE a."tenantId" = ${p.tenantId}::uuid AND a."approverId" = ${approverId}::uuid AND p."kind" = ${BULK_MESSAGE_KIND}
       AND a."createdAt" >= (date_trunc('day', ${now}::timestamptz AT TIME ZONE ${policy.timeZone}) AT TIME ZONE ${policy.timeZone})`.execute(
      sqlOf(tx),
    )
  ).rows;
  const used = Number(today?.total ?? 0);
  const count = paramsOf(p).audience.count;
  if (used + count <= policy.dailyRecipientsCap) return null;
  return {
    message: "Approving this would exceed the recipients you may approve today; ask another reviewer.",
    details: {
      reason: "daily_recipients",
      usedRecipients: used,
      recipients: count,
      capRecipients: policy.dailyRecipientsCap,
    },
  };
};

export const bulkMessageBehaviour: KindBehaviour = {
  revalidate,
  review,
  approvalLimit,
  agentAction: (p) => agentAction(paramsOf(p)),
  executor: bulkMessageExecutor,
};
