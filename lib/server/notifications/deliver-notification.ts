import "server-only";
import { isExecutionSettled } from "@/lib/domain/execution-state";
import { can, isRole } from "@/lib/domain/permissions";
import { proposalStatus } from "@/lib/domain/proposal-state";
import { db } from "@/lib/server/db/client";
import { appBaseUrl, webhookAllowPrivate } from "@/lib/server/env";
import { log } from "@/lib/server/log";
import { shownDeliveryError } from "./delivery-error";
import { emailEnabled, sendMail, type OutgoingMail } from "./mailer";
import {
  hasAmount,
  inDoubtMail,
  proposalMail,
  testMail,
  type KindProposalFacts,
  type MessageContext,
  type ProposalFacts,
} from "./notification-messages";
import { postWebhook } from "./post-webhook";
import { slackProposalMessage, slackTestMessage, type SlackMessage } from "./slack-payload";
import { kindBehaviourOf } from "@/lib/actions/registry.server";

export const SLACK_TIMEOUT_MS = 5_000;

/** Thrown to make graphile-worker retry the job (with its backoff). */
export class NotificationAttemptFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NotificationAttemptFailed";
  }
}

type Prepared = { skip: string } | { email: OutgoingMail } | { slack: { url: string; message: SlackMessage } };

const notificationSelect = {
  id: true,
  tenantId: true,
  kind: true,
  channel: true,
  status: true,
  proposalId: true,
  executionId: true,
  staffUserId: true,
} as const;
type NotificationRow = {
  id: string;
  tenantId: string;
  kind: string;
  channel: string;
  status: string;
  proposalId: string | null;
  executionId: string | null;
  staffUserId: string | null;
};

/**
 * Builds the message from the database *as it is now* (tenant scope in every read): a proposal decided
 * meanwhile, a recipient disabled, demoted or opted out since, an execution settled before the alert,
 * or a channel turned off — each makes the notification `skipped` instead of sent.
 */
async function prepare(n: NotificationRow): Promise<Prepared> {
  const tenant = await db().tenant.findUniqueOrThrow({
    where: { id: n.tenantId },
    select: { locale: true, timeZone: true, slackWebhookUrl: true },
  });
  let recipient: { email: string; locale: string } | null = null;
  if (n.channel === "email") {
    if (!emailEnabled()) return { skip: "e-mail is off" };
    const staff = n.staffUserId
      ? await db().staffUser.findFirst({
          where: { id: n.staffUserId, tenantId: n.tenantId },
          select: { email: true, locale: true, disabled: true, roles: true, notificationPreference: true },
        })
      : null;
    if (!staff || staff.disabled) return { skip: "recipient disabled or gone" };
    const userRoles = staff.roles.filter(isRole);
    const pref = staff.notificationPreference;
    // A test e-mail goes to the admin who asked for it, whatever their preferences.
    const wanted =
      n.kind === "test"
        ? true
        : n.kind === "in_doubt"
          ? can(userRoles, "executions:reconcile") && (pref?.emailInDoubt ?? true)
          : can(userRoles, "proposal:decide") &&
            (n.kind === "new_proposal" ? (pref?.emailNewProposal ?? true) : (pref?.emailExpiring ?? true));
    if (!wanted) return { skip: "recipient opted out or lost the role" };
    recipient = { email: staff.email, locale: staff.locale ?? tenant.locale };
  } else if (!tenant.slackWebhookUrl) {
    return { skip: "the tenant's Slack webhook was turned off" };
  }
  const ctx: MessageContext = {
    locale: recipient?.locale ?? tenant.locale,
    timeZone: tenant.timeZone,
    baseUrl: appBaseUrl(),
  };

  if (n.kind === "test") {
    return recipient
      ? { email: { to: recipient.email, ...testMail(ctx) } }
      : { slack: { url: tenant.slackWebhookUrl!, message: slackTestMessage(ctx) } };
  }

  if (n.kind === "in_doubt") {
    const ex = n.executionId
      ? await db().execution.findFirst({
          where: { id: n.executionId, tenantId: n.tenantId },
          select: { id: true, status: true, lastError: true, proposal: { select: proposalSelect } },
        })
      : null;
    if (!ex) return { skip: "execution not found" };
    if (isExecutionSettled(ex.status)) return { skip: "execution settled before the alert went out" };
    const facts = factsOf(ex.proposal);
    if ("skip" in facts) return facts;
    const alert = hasAmount(facts)
      ? { ...facts, lastError: ex.lastError }
      : { executionId: ex.id, kind: facts.kind, orderNumber: facts.orderNumber, lastError: ex.lastError };
    return { email: { to: recipient!.email, ...inDoubtMail(alert, ctx) } };
  }

  const proposal = n.proposalId
    ? await db().proposal.findFirst({
        where: { id: n.proposalId, tenantId: n.tenantId },
        select: { ...proposalSelect, status: true },
      })
    : null;
  if (!proposal) return { skip: "proposal not found" };
  if (proposal.status !== proposalStatus.pendingApproval || proposal.expiresAt <= new Date())
    return { skip: "proposal no longer awaits review" };
  const facts = factsOf(proposal);
  if ("skip" in facts) return facts;
  const kind = n.kind === "expiring" ? "expiring" : "new_proposal";
  if (recipient) return { email: { to: recipient.email, ...proposalMail(kind, facts, ctx) } };
  return { slack: { url: tenant.slackWebhookUrl!, message: slackProposalMessage(kind, facts, ctx) } };
}

const proposalSelect = {
  id: true,
  kind: true,
  orderNumber: true,
  amountMinor: true,
  currency: true,
  recipientDisplay: true,
  expiresAt: true,
} as const;

/**
 * What a message may say about a proposal. One with an amount and a masked recipient (the refund's columns) is
 * shown with them; one of another kind by its kind's label and its order number — never its params, which hold
 * personal data. A kind this release does not know (a newer release wrote it, read after a rollback) is skipped,
 * never guessed at: the registry (`kindBehaviourOf`) is the one list of kinds.
 */
function factsOf(p: {
  id: string;
  kind: string;
  orderNumber: string | null;
  amountMinor: number | null;
  currency: string | null;
  recipientDisplay: string | null;
  expiresAt: Date;
}): ProposalFacts | KindProposalFacts | { skip: string } {
  if (!kindBehaviourOf(p.kind)) return { skip: `unknown action kind ${p.kind}` };
  if (p.amountMinor !== null && p.currency !== null && p.recipientDisplay !== null)
    return {
      id: p.id,
      amountMinor: p.amountMinor,
      currency: p.currency,
      recipientDisplay: p.recipientDisplay,
      expiresAt: p.expiresAt,
    };
  return { id: p.id, kind: p.kind, orderNumber: p.orderNumber, expiresAt: p.expiresAt };
}

/**
 * One delivery attempt of an outbox notification (task `deliver_notification`). Guarded updates on
 * `status = 'pending'` make a re-run after success (or a second worker) do nothing. A failed send is
 * recorded and the job throws to be retried; after the last attempt the row is `failed`.
 * At-least-once: a crash between the send and the commit sends the same message again.
 */
export async function deliverNotification(input: {
  notificationId: string;
  attempt: number;
  isLastAttempt: boolean;
}): Promise<void> {
  const n = await db().notification.findUnique({ where: { id: input.notificationId }, select: notificationSelect });
  if (!n || n.status !== "pending") return;
  const nlog = log.child({
    component: "notifications",
    notificationId: n.id,
    tenantId: n.tenantId,
    kind: n.kind,
    channel: n.channel,
    attempt: input.attempt,
  });

  let prepared: Prepared | { notBuilt: string };
  try {
    prepared = await prepare(n);
  } catch (e) {
    // A message that cannot be built (a row this code cannot read, a bad time zone) fails like a send: recorded,
    // retried, and `failed` after the last attempt — never left `pending` with no job behind it.
    prepared = { notBuilt: `message not built: ${e instanceof Error ? e.message : String(e)}` };
  }
  if ("skip" in prepared) {
    await db().notification.updateMany({
      where: { id: n.id, status: "pending" },
      data: { status: "skipped", lastError: prepared.skip },
    });
    nlog.info({ reason: prepared.skip }, "notification skipped");
    return;
  }

  let error: string | null = null;
  let permanent = false;
  if ("notBuilt" in prepared) {
    error = prepared.notBuilt;
  } else if ("email" in prepared) {
    const sent = await sendMail(prepared.email);
    if (!sent.ok) error = sent.error;
  } else {
    const posted = await postWebhook({
      url: prepared.slack.url,
      body: JSON.stringify(prepared.slack.message),
      headers: {},
      timeoutMs: SLACK_TIMEOUT_MS,
      allowPrivate: webhookAllowPrivate(),
    });
    if (!posted.ok) {
      error = posted.error;
      permanent = posted.permanent;
    }
  }

  const final = error === null || permanent || input.isLastAttempt;
  await db().notification.updateMany({
    where: { id: n.id, status: "pending" },
    data: {
      status: error === null ? "sent" : final ? "failed" : "pending",
      attempts: { increment: 1 },
      lastError: shownDeliveryError(error),
      sentAt: error === null ? new Date() : null,
    },
  });
  if (error === null) {
    nlog.info("notification sent");
    return;
  }
  if (final) {
    nlog.warn({ error }, "notification failed for good");
    return;
  }
  nlog.info({ error }, "notification attempt failed; will retry");
  throw new NotificationAttemptFailed(`notification attempt ${input.attempt} failed: ${error}`);
}
