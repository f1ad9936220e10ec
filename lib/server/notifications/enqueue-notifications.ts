import "server-only";
import { randomUUID } from "node:crypto";
import { can, roles, type Permission, type Role } from "@/lib/domain/permissions";
import { proposalStatus } from "@/lib/domain/proposal-state";
import { type Tx } from "@/lib/server/db/client";
import { sql, sqlOf, type Sql, nowUtc } from "@/lib/server/db/sql";
import { statusLit } from "@/lib/server/db/status-sql";
import { executionStatus } from "@/lib/domain/execution-state";
import { executionTimings, notifyExpiringWithinMinutes } from "@/lib/server/env";
import { enqueueJob } from "@/lib/server/jobs/enqueue";
import { emailEnabled } from "./mailer";
import { transaction } from "@/lib/server/db/transaction";

// The notification outbox. Each function is called inside the transaction of the change that causes the
// notification (a proposal is created, an execution becomes unknown) or, for reminders, is that
// transaction: the Notification rows and their delivery jobs commit together with it or not at all.
// `dedupeKey` (unique) = kind:channel:subject[:recipient], inserted with ON CONFLICT DO NOTHING, so each
// notification exists once however often — or by how many workers at once — it is asked for.

/** Attempts per notification before it is `failed` (backoff e^1 … e^5 s between them). */
export const NOTIFICATION_MAX_ATTEMPTS = 6;

/** Who receives what: derived from the one permission table, never from role names here. */
const rolesWith = (permission: Permission): Role[] => roles.filter((r) => can([r], permission));
export const reviewerRoles = () => rolesWith("proposal:decide");
export const opsRoles = () => rolesWith("executions:reconcile");

type Row = {
  id: string;
  tenantId: string;
  kind: "new_proposal" | "expiring" | "in_doubt";
  channel: "email" | "slack";
  dedupeKey: string;
  proposalId?: string;
  executionId?: string;
  staffUserId?: string;
};

async function insertAndEnqueue(tx: Sql, rows: Row[]): Promise<string[]> {
  if (rows.length === 0) return [];
  // One statement for every row (ON CONFLICT DO NOTHING: a dedupe key already there is skipped).
  const col = <K extends keyof Row>(k: K) => rows.map((r) => r[k] ?? null);
  const { rows: created } = await sql<{ id: string }>`
    INSERT INTO "Notification" ("id", "tenantId", "kind", "channel", "dedupeKey", "proposalId", "executionId", "staffUserId", "createdAt")
    SELECT n.*, ${nowUtc}
      FROM unnest(${col("id")}::uuid[], ${col("tenantId")}::uuid[], ${col("kind")}::"NotificationKind"[], ${col("channel")}::"NotificationChannel"[],
                  ${col("dedupeKey")}::text[], ${col("proposalId")}::uuid[], ${col("executionId")}::uuid[], ${col("staffUserId")}::uuid[]) AS n
    ON CONFLICT DO NOTHING
    RETURNING "id"`.execute(tx);
  await enqueueDeliveries(tx, created);
  return created.map((r) => r.id);
}

/** The delivery job of each new notification, enqueued in the transaction that inserted it. */
async function enqueueDeliveries(q: Sql, created: { id: string }[]): Promise<void> {
  for (const { id } of created)
    await enqueueJob(q, "deliver_notification", { notificationId: id }, { maxAttempts: NOTIFICATION_MAX_ATTEMPTS });
}

/** A sweep: one INSERT … RETURNING id of the notifications now due, and their delivery jobs, in one transaction. */
async function sweep(insertDue: (q: Sql) => Promise<{ id: string }[]>): Promise<{ created: number }> {
  const created = await transaction(async (tx) => {
    const q = sqlOf(tx);
    const rows = await insertDue(q);
    await enqueueDeliveries(q, rows);
    return rows.length;
  });
  return { created };
}

/**
 * A pending proposal was created: one e-mail per enabled reviewer of the proposal's tenant who has not
 * turned new-proposal e-mails off (only when e-mail is configured), and one Slack message when the tenant
 * has a Slack webhook. Returns the notification ids. `known`: the tenant's Slack webhook when the caller
 * has already read it (then nothing is read here when e-mail is off and there is no Slack webhook).
 * The typed SQL layer: the agent gateway runs it in its pg transaction.
 */
export async function notifyOfNewProposal(
  q: Sql,
  proposal: { id: string; tenantId: string },
  known?: { slackWebhookUrl: string | null },
): Promise<string[]> {
  const rows: Row[] = [];
  if (emailEnabled()) {
    const { rows: staff } = await sql<{ id: string }>`
      SELECT s."id" FROM "StaffUser" s
        LEFT JOIN "NotificationPreference" np ON np."staffUserId" = s."id"
       WHERE s."tenantId" = ${proposal.tenantId}::uuid AND NOT s."disabled" AND s."roles" && ${reviewerRoles()}::"Role"[]
         AND COALESCE(np."emailNewProposal", true)`.execute(q);
    for (const s of staff) {
      rows.push({
        id: randomUUID(),
        tenantId: proposal.tenantId,
        kind: "new_proposal",
        channel: "email",
        dedupeKey: `new_proposal:email:${proposal.id}:${s.id}`,
        proposalId: proposal.id,
        staffUserId: s.id,
      });
    }
  }
  const slackWebhookUrl =
    known !== undefined
      ? known.slackWebhookUrl
      : ((await q.selectFrom("Tenant").select("slackWebhookUrl").where("id", "=", proposal.tenantId).executeTakeFirst())
          ?.slackWebhookUrl ?? null);
  if (slackWebhookUrl) {
    rows.push({
      id: randomUUID(),
      tenantId: proposal.tenantId,
      kind: "new_proposal",
      channel: "slack",
      dedupeKey: `new_proposal:slack:${proposal.id}`,
      proposalId: proposal.id,
    });
  }
  return insertAndEnqueue(q, rows);
}

/**
 * An execution's outcome became unknown: one e-mail per enabled ops member of its tenant who has not
 * turned in-doubt alerts off. Once per execution and person, however many unknown answers follow.
 */
export async function notifyOpsOfInDoubt(
  tx: Tx,
  execution: { id: string; tenantId: string; proposalId: string },
): Promise<string[]> {
  if (!emailEnabled()) return [];
  const staff = await tx.staffUser.findMany({
    where: {
      tenantId: execution.tenantId,
      disabled: false,
      roles: { hasSome: opsRoles() },
      OR: [{ notificationPreference: null }, { notificationPreference: { emailInDoubt: true } }],
    },
    select: { id: true },
  });
  return insertAndEnqueue(
    sqlOf(tx),
    staff.map((s) => ({
      id: randomUUID(),
      tenantId: execution.tenantId,
      kind: "in_doubt" as const,
      channel: "email" as const,
      dedupeKey: `in_doubt:email:${execution.id}:${s.id}`,
      executionId: execution.id,
      proposalId: execution.proposalId,
      staffUserId: s.id,
    })),
  );
}

const REMINDER_BATCH = 1000;

/**
 * The reminder sweep (job `remind_expiring_proposals`, every minute): pending proposals that expire
 * within NOTIFY_EXPIRING_WITHIN_MINUTES get one reminder per opted-in reviewer of their tenant (and one
 * Slack message), once — the dedupe key makes a second run, or a second worker, insert nothing.
 * Proposals whose whole life is shorter than the window get no reminder (the new-proposal message
 * already said when they expire). One statement inserts the rows; their jobs are enqueued in the same
 * transaction.
 */
export async function remindExpiringProposals(): Promise<{ created: number }> {
  const minutes = notifyExpiringWithinMinutes();
  const email = emailEnabled();
  return sweep(async (q) => {
    const { rows } = await sql<{ id: string }>`
      WITH due AS (
        SELECT p.id, p."tenantId" FROM "Proposal" p
         WHERE p.status = ${statusLit(proposalStatus.pendingApproval)}
           AND p."expiresAt" > now()
           AND p."expiresAt" <= now() + make_interval(mins => ${minutes}::int)
           AND p."expiresAt" - p."createdAt" > make_interval(mins => ${minutes}::int)
         ORDER BY p."expiresAt", p.id
         LIMIT ${REMINDER_BATCH}
      ), wanted AS (
        SELECT due."tenantId", 'email' AS channel, 'expiring:email:' || due.id || ':' || s.id AS key, due.id AS "proposalId", s.id AS "staffUserId"
          FROM due
          JOIN "StaffUser" s ON s."tenantId" = due."tenantId" AND NOT s.disabled AND s.roles && ${reviewerRoles()}::"Role"[]
          LEFT JOIN "NotificationPreference" np ON np."staffUserId" = s.id
         WHERE ${email} AND COALESCE(np."emailExpiring", true)
        UNION ALL
        SELECT due."tenantId", 'slack', 'expiring:slack:' || due.id, due.id, NULL
          FROM due JOIN "Tenant" t ON t.id = due."tenantId"
         WHERE t."slackWebhookUrl" IS NOT NULL
      )
      INSERT INTO "Notification" (id, "tenantId", kind, channel, "dedupeKey", "proposalId", "staffUserId")
      SELECT gen_random_uuid(), "tenantId", 'expiring', channel::"NotificationChannel", key, "proposalId", "staffUserId" FROM wanted
      ON CONFLICT ("dedupeKey") DO NOTHING
      RETURNING id`.execute(q);
    return rows;
  });
}

/**
 * The other way into doubt (job `alert_stale_executions`, every minute): an execution still `sending` past
 * the stale threshold (EXECUTION_STALE_SENDING_MS) — a worker that probably died after calling the provider;
 * the same rule as the ops in-doubt queue. Ops get the same in-doubt alert, once per execution and person
 * (the dedupe key is shared with the alert sent when an execution becomes `unknown`).
 */
export async function alertStaleSendingExecutions(): Promise<{ created: number }> {
  if (!emailEnabled()) return { created: 0 };
  const staleSeconds = executionTimings().staleSendingMs / 1000;
  return sweep(async (q) => {
    const { rows } = await sql<{ id: string }>`
      WITH due AS (
        SELECT e.id, e."tenantId", e."proposalId" FROM "Execution" e
         WHERE e.status = ${statusLit(executionStatus.sending)}
           AND COALESCE(e."lastAttemptAt", e."createdAt") < now() - make_interval(secs => ${staleSeconds}::float8)
         ORDER BY e."createdAt", e.id
         LIMIT ${REMINDER_BATCH}
      )
      INSERT INTO "Notification" (id, "tenantId", kind, channel, "dedupeKey", "executionId", "proposalId", "staffUserId")
      SELECT gen_random_uuid(), due."tenantId", 'in_doubt', 'email', 'in_doubt:email:' || due.id || ':' || s.id, due.id, due."proposalId", s.id
        FROM due
        JOIN "StaffUser" s ON s."tenantId" = due."tenantId" AND NOT s.disabled AND s.roles && ${opsRoles()}::"Role"[]
        LEFT JOIN "NotificationPreference" np ON np."staffUserId" = s.id
       WHERE COALESCE(np."emailInDoubt", true)
      ON CONFLICT ("dedupeKey") DO NOTHING
      RETURNING id`.execute(q);
    return rows;
  });
}
