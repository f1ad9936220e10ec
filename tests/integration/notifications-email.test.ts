// Notification e-mails end to end against a REAL SMTP server (smtp-server on 127.0.0.1): the agent
// prepares a refund through the gateway, the outbox rows and jobs commit with the proposal, the worker
// sends through nodemailer, and the server receives exactly the messages it should — to opted-in
// reviewers of the proposal's tenant only, reminders once, in-doubt alerts to ops.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { formatMinor } from "@/lib/domain/format-money";
import { AppError } from "@/lib/domain/outcome";
import { db } from "@/lib/server/db/client";
import { applyProviderAnswer } from "@/lib/server/executions/apply-provider-answer";
import { alertStaleSendingExecutions, remindExpiringProposals } from "@/lib/server/notifications/enqueue-notifications";
import {
  getNotificationPreferences,
  updateNotificationPreferences,
} from "@/lib/server/notifications/notification-preferences";
import { actorOf } from "./audit-support";
import { ES, makeProposal, minutesFromNow, US } from "./jobs-support";
import { makeNotificationJobsDue, startSmtp, staffId, worker, type TestSmtp } from "./notifications-support";
import { preparedForFreshOrder } from "./proposal-support";
import { john } from "./gateway-support";

const LUCIA = "lucia.revisora@tienda-es.test";
const JAVIER = "javier.revisor@tienda-es.test";
const MARTA_OPS = "operaciones@tienda-es.test";
const base = "http://approvals.test";

let smtp: TestSmtp;

beforeAll(async () => {
  smtp = await startSmtp();
  process.env.SMTP_URL = smtp.url;
  process.env.MAIL_FROM = "Approvals <approvals@example.test>";
  process.env.APP_URL = base;
});
afterAll(async () => {
  delete process.env.SMTP_URL;
  delete process.env.MAIL_FROM;
  delete process.env.APP_URL;
  await smtp.close();
});
beforeEach(async () => {
  smtp.mails.length = 0;
  smtp.refuseNext.length = 0;
  await db().notificationPreference.deleteMany({});
  await db().staffUser.updateMany({ where: { email: { in: [LUCIA, JAVIER, MARTA_OPS] } }, data: { disabled: false } });
});

const recipients = () => smtp.mails.flatMap((m) => m.to).sort();

describe("new-proposal e-mail", () => {
  it("reaches every reviewer of the proposal's tenant with the amount, masked recipient, expiry and link — nobody else", async () => {
    const { proposal } = await preparedForFreshOrder(4_321);
    const rows = await db().notification.findMany({ where: { proposalId: proposal.id } });
    expect(rows.map((r) => [r.kind, r.channel, r.status])).toEqual([
      ["new_proposal", "email", "pending"],
      ["new_proposal", "email", "pending"],
    ]);

    await worker();
    expect(recipients()).toEqual([JAVIER, LUCIA]);
    const amount = formatMinor(4_321, "EUR", "es-ES");
    for (const mail of smtp.mails) {
      expect(mail.from).toBe("approvals@example.test");
      expect(mail.subject).toContain(amount);
      expect(mail.subject).toContain("UTC");
      expect(mail.text).toContain(`${base}/proposals/${proposal.id}`);
      expect(mail.html).toContain(`href="${base}/proposals/${proposal.id}"`);
      expect(mail.text).toContain("Visa •••• 4242");
      expect(mail.text).toContain("UTC (");
      // Only what a reviewer sees in the list: no holder name, no provider payment reference, no hash.
      expect(mail.text).not.toContain("Test Holder");
      expect(mail.text).not.toContain(proposal.recipientRef);
      expect(mail.text).not.toContain(proposal.hash);
    }
    expect(await db().notification.count({ where: { proposalId: proposal.id, status: "sent" } })).toBe(2);

    // A second worker run sends nothing again.
    await worker();
    expect(smtp.mails).toHaveLength(2);
  });

  it("in English for a US proposal, to US reviewers only", async () => {
    const { proposal } = await preparedForFreshOrder(1_250, { tenant: US, customer: john });
    await worker();
    expect(recipients()).toEqual(["riley.reviewer@shop-us.test", "sam.reviewer@shop-us.test"]);
    expect(smtp.mails[0]!.subject).toBe(
      `Refund to review: $12.50 — expires ${smtp.mails[0]!.subject.split("expires ")[1]}`,
    );
    expect(smtp.mails[0]!.text).toContain(`${base}/proposals/${proposal.id}`);
  });

  it("respects preferences: an opted-out reviewer gets nothing; a disabled one neither", async () => {
    const javier = await actorOf(ES, "reviewer", 1);
    expect(javier.email).toBe(JAVIER);
    await updateNotificationPreferences(javier, { emailNewProposal: false });
    await preparedForFreshOrder(2_000);
    await worker();
    expect(recipients()).toEqual([LUCIA]);

    smtp.mails.length = 0;
    await db().staffUser.update({ where: { email: LUCIA }, data: { disabled: true } });
    const { proposal } = await preparedForFreshOrder(2_100);
    await worker();
    expect(smtp.mails).toEqual([]);
    expect(await db().notification.count({ where: { proposalId: proposal.id } })).toBe(0);
  });

  it("a reviewer who opts out after the proposal was created is skipped at delivery", async () => {
    const { proposal } = await preparedForFreshOrder(2_200);
    await updateNotificationPreferences(await actorOf(ES, "reviewer", 0), { emailNewProposal: false });
    await worker();
    expect(recipients()).toEqual([JAVIER]);
    const lucia = await db().notification.findFirstOrThrow({
      where: { proposalId: proposal.id, staffUserId: await staffId(LUCIA) },
    });
    expect(lucia.status).toBe("skipped");
  });

  it("a proposal decided before delivery is not announced", async () => {
    const { proposal } = await preparedForFreshOrder(2_300);
    await db().proposal.update({ where: { id: proposal.id }, data: { status: "rejected", decidedAt: new Date() } });
    await worker();
    expect(smtp.mails).toEqual([]);
    expect(await db().notification.count({ where: { proposalId: proposal.id, status: "skipped" } })).toBe(2);
  });

  it("retries when the SMTP server refuses for now, and sends on the next attempt", async () => {
    await updateNotificationPreferences(await actorOf(ES, "reviewer", 1), { emailNewProposal: false });
    smtp.refuseNext.push(451);
    const { proposal } = await preparedForFreshOrder(2_400);
    await worker();
    expect(smtp.mails).toEqual([]);
    const row = await db().notification.findFirstOrThrow({ where: { proposalId: proposal.id } });
    expect(row).toMatchObject({ status: "pending", attempts: 1, lastError: "e-mail not sent (SMTP 451)" });
    await makeNotificationJobsDue();
    await worker();
    expect(recipients()).toEqual([LUCIA]);
    expect(await db().notification.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({
      status: "sent",
      attempts: 2,
    });
  });
});

describe("about-to-expire reminder", () => {
  async function expiringSoon() {
    const p = await makeProposal(ES, { expiresAt: minutesFromNow(5), amountMinor: 7_700 });
    // Created 25 minutes ago: its whole life (30 min) is longer than the reminder window (10 min).
    await db().proposal.update({ where: { id: p.id }, data: { createdAt: minutesFromNow(-25) } });
    return p;
  }

  it("is sent once per proposal and reviewer, even when the sweep runs twice and concurrently", async () => {
    const p = await expiringSoon();
    const far = await makeProposal(ES, { expiresAt: minutesFromNow(25) });
    await db().proposal.update({ where: { id: far.id }, data: { createdAt: minutesFromNow(-5) } });
    const [a, b] = await Promise.all([remindExpiringProposals(), remindExpiringProposals()]);
    expect(a.created + b.created).toBe(2);
    expect((await remindExpiringProposals()).created).toBe(0);
    await worker();
    expect(recipients()).toEqual([JAVIER, LUCIA]);
    for (const mail of smtp.mails) {
      expect(mail.subject).toContain(formatMinor(7_700, "EUR", "es-ES"));
      expect(mail.text).toContain(`${base}/proposals/${p.id}`);
    }
    expect(await db().notification.count({ where: { proposalId: far.id } })).toBe(0);

    expect((await remindExpiringProposals()).created).toBe(0);
    await worker();
    expect(smtp.mails).toHaveLength(2);
  });

  it("respects the expiring preference and skips proposals that live shorter than the window", async () => {
    await updateNotificationPreferences(await actorOf(ES, "reviewer", 0), { emailExpiring: false });
    await expiringSoon();
    const short = await makeProposal(ES, { expiresAt: minutesFromNow(5) }); // created now: a 5-minute life
    await remindExpiringProposals();
    await worker();
    expect(recipients()).toEqual([JAVIER]);
    expect(await db().notification.count({ where: { proposalId: short.id } })).toBe(0);
  });
});

describe("in-doubt alert", () => {
  async function sendingExecution(slug = ES) {
    const p = await makeProposal(slug, { status: "executing", expiresAt: minutesFromNow(30), amountMinor: 5_500 });
    return db().execution.create({
      data: {
        tenantId: p.tenantId,
        proposalId: p.id,
        idempotencyKey: `test-${randomUUID()}`,
        status: "sending",
        attempts: 1,
      },
    });
  }
  const unknown = (executionId: string) =>
    applyProviderAnswer({
      executionId,
      answer: { outcome: "unknown", cause: "timeout", message: "no answer in 10 s", statusCode: null, requestId: null },
      source: "send",
      traceId: "t",
    });

  it("reaches ops of the tenant (who opted in) once, however many unknown answers follow", async () => {
    const ex = await sendingExecution();
    await unknown(ex.id);
    await unknown(ex.id);
    expect(await db().notification.count({ where: { executionId: ex.id } })).toBe(1);
    await worker();
    const mails = smtp.mails.filter((m) => m.subject.includes(formatMinor(5_500, "EUR", "es-ES")));
    expect(mails.map((m) => m.to)).toEqual([[MARTA_OPS]]);
    expect(mails[0]!.text).toContain(`${base}/executions`);
    expect(mails[0]!.text).toContain("timeout: no answer in 10 s");
  });

  it("an execution stuck in `sending` past the stale threshold alerts ops once; a fresh one does not", async () => {
    const stale = await sendingExecution();
    await db().execution.update({ where: { id: stale.id }, data: { lastAttemptAt: minutesFromNow(-10) } });
    const fresh = await sendingExecution();
    await db().execution.update({ where: { id: fresh.id }, data: { lastAttemptAt: new Date() } });
    const [a, b] = await Promise.all([alertStaleSendingExecutions(), alertStaleSendingExecutions()]);
    expect(a.created + b.created).toBe(1);
    // Becoming `unknown` later does not alert the same person again (shared dedupe key).
    await unknown(stale.id);
    expect(await db().notification.count({ where: { executionId: stale.id } })).toBe(1);
    expect(await db().notification.count({ where: { executionId: fresh.id } })).toBe(0);
    await worker();
    expect(smtp.mails.filter((m) => m.to.includes(MARTA_OPS))).toHaveLength(1);
  });

  it("an ops member who opted out gets nothing", async () => {
    await updateNotificationPreferences(await actorOf(ES, "ops", 0), { emailInDoubt: false });
    const ex = await sendingExecution();
    await unknown(ex.id);
    expect(await db().notification.count({ where: { executionId: ex.id } })).toBe(0);
  });
});

describe("preferences", () => {
  it("default on; a user changes only their own; bad input and roles without notifications are refused", async () => {
    const lucia = await actorOf(ES, "reviewer", 0);
    expect(await getNotificationPreferences(lucia)).toMatchObject({
      emailNewProposal: true,
      emailExpiring: true,
      emailInDoubt: true,
      applies: { newProposal: true, expiring: true, inDoubt: false },
      emailEnabled: true,
      expiringWithinMinutes: 10,
    });
    const saved = await updateNotificationPreferences(lucia, { emailExpiring: false });
    expect(saved).toMatchObject({ emailNewProposal: true, emailExpiring: false });
    // Nobody else's row changed.
    expect(await db().notificationPreference.findMany({ select: { staffUserId: true } })).toEqual([
      { staffUserId: lucia.userId },
    ]);

    await expect(updateNotificationPreferences(lucia, { emailExpiring: "no" })).rejects.toMatchObject({
      code: "invalid_arguments",
    });
    await expect(
      updateNotificationPreferences(lucia, { staffUserId: randomUUID(), emailExpiring: true }),
    ).rejects.toMatchObject({
      code: "invalid_arguments",
    });
    const auditor = await actorOf(ES, "auditor", 0);
    await expect(getNotificationPreferences(auditor)).rejects.toBeInstanceOf(AppError);
    await expect(updateNotificationPreferences(auditor, { emailNewProposal: false })).rejects.toMatchObject({
      code: "permission_denied",
    });
  });
});
