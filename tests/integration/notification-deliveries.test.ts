// Admin's Slack and e-mail delivery history (lib/server/admin/list-notification-deliveries.ts,
// resend-notification.ts, send-test-notification.ts) through the real database and the real worker, with a
// local HTTP listener standing in for Slack and a real SMTP server for e-mail: a failing message is retried,
// given up (`failed`), resent by an admin and delivered; another tenant's admin can neither see nor resend it;
// two resends at once enqueue one job; "Send test" goes through the same outbox and worker.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import { sqlPool } from "@/lib/server/db/pg";
import { sql } from "@/lib/server/db/sql";
import { listNotificationDeliveries } from "@/lib/server/admin/list-notification-deliveries";
import { resendNotification } from "@/lib/server/admin/resend-notification";
import { sendTestNotification } from "@/lib/server/admin/send-test-notification";
import { NOTIFICATION_MAX_ATTEMPTS } from "@/lib/server/notifications/enqueue-notifications";
import { setSlackWebhook } from "@/lib/server/notifications/slack-webhook-settings";
import { actorOf } from "./audit-support";
import { ES, tenantIdOf, US } from "./jobs-support";
import { makeNotificationJobsDue, startSmtp, worker, type TestSmtp } from "./notifications-support";
import { preparedForFreshOrder } from "./proposal-support";

let server: Server;
let hookUrl: string;
let received: { text: string }[] = [];
let answer = 200;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push(JSON.parse(Buffer.concat(chunks).toString("utf8")) as { text: string });
      res.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/services/T1/B1/secret`;
  process.env.APP_URL = "http://approvals.test";
  delete process.env.SMTP_URL;
});
afterAll(async () => {
  delete process.env.APP_URL;
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(async () => {
  received = [];
  answer = 200;
  await setSlackWebhook(await actorOf(ES, "admin"), { intent: "save", url: hookUrl });
});

const jobsOf = async (id: string) =>
  Number(
    (
      await sql<{
        n: bigint;
      }>`SELECT count(*) AS n FROM graphile_worker._private_jobs WHERE key = ${`notify:${id}`}`.execute(sqlPool())
    ).rows[0]!.n,
  );
const rowOf = (id: string) => db().notification.findUniqueOrThrow({ where: { id } });

/** Runs the worker until the notification leaves `pending` (each retry made due at once instead of after its backoff). */
async function untilSettled(id: string) {
  for (let i = 0; i < NOTIFICATION_MAX_ATTEMPTS + 2; i++) {
    await makeNotificationJobsDue();
    await worker();
    if ((await rowOf(id)).status !== "pending") return rowOf(id);
  }
  return rowOf(id);
}

describe("Slack delivery history", () => {
  it("a failing Slack message is retried, given up, listed with its error, resent once by an admin and delivered", async () => {
    answer = 503;
    const admin = await actorOf(ES, "admin");
    const { proposal } = await preparedForFreshOrder(2_468);
    const n = await db().notification.findFirstOrThrow({ where: { proposalId: proposal.id, channel: "slack" } });

    // First attempt fails: pending, with the error and the next attempt's time from the job table.
    await worker();
    expect(await rowOf(n.id)).toMatchObject({ status: "pending", attempts: 1, lastError: "HTTP 503" });
    const listed = (await listNotificationDeliveries(admin)).find((d) => d.id === n.id)!;
    expect(listed).toMatchObject({
      channel: "slack",
      kind: "new_proposal",
      status: "pending",
      attempts: 1,
      lastError: "HTTP 503",
      recipient: null,
    });
    expect(listed.nextAttemptAt).not.toBeNull();
    await expect(resendNotification(admin, n.id)).rejects.toMatchObject({
      code: "permission_denied",
      details: { reason: "pending" },
    });

    // Retried until the last attempt: failed for good, no job left, no next attempt.
    expect(await untilSettled(n.id)).toMatchObject({
      status: "failed",
      attempts: NOTIFICATION_MAX_ATTEMPTS,
      lastError: "HTTP 503",
    });
    expect(received).toHaveLength(NOTIFICATION_MAX_ATTEMPTS);
    expect((await listNotificationDeliveries(admin, { channel: "slack" })).find((d) => d.id === n.id)).toMatchObject({
      status: "failed",
      nextAttemptAt: null,
    });

    // Two resends at once (a double click): one moves it back to pending and enqueues one job; the other is refused.
    answer = 200;
    const both = await Promise.allSettled([resendNotification(admin, n.id), resendNotification(admin, n.id)]);
    expect(both.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(both.find((r) => r.status === "rejected")).toMatchObject({ reason: { code: "permission_denied" } });
    expect(await rowOf(n.id)).toMatchObject({ status: "pending", attempts: 0, lastError: null });
    expect(await jobsOf(n.id)).toBe(1);

    await worker();
    expect(await rowOf(n.id)).toMatchObject({ status: "sent", attempts: 1, lastError: null });
    expect(received).toHaveLength(NOTIFICATION_MAX_ATTEMPTS + 1);
    expect(received.at(-1)!.text).toContain("Visa");
    expect(await jobsOf(n.id)).toBe(0);
    // Delivered: nothing to resend.
    await expect(resendNotification(admin, n.id)).rejects.toMatchObject({
      code: "permission_denied",
      details: { reason: "sent" },
    });

    const events = await db().auditEvent.findMany({
      where: {
        tenantId: admin.tenantId,
        action: "admin:resend_notification",
        data: { path: ["target", "id"], equals: n.id },
      },
    });
    expect(events).toHaveLength(1);
    expect(events[0]!.actorId).toBe(admin.userId);
  });

  it("another tenant's admin neither sees nor resends it; a reviewer cannot resend; bad ids are not found", async () => {
    answer = 500;
    const { proposal } = await preparedForFreshOrder(1_357);
    const n = await db().notification.findFirstOrThrow({ where: { proposalId: proposal.id, channel: "slack" } });
    expect(await untilSettled(n.id)).toMatchObject({ status: "failed" });

    const usAdmin = await actorOf(US, "admin");
    expect((await listNotificationDeliveries(usAdmin)).map((d) => d.id)).not.toContain(n.id);
    await expect(resendNotification(usAdmin, n.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(resendNotification(await actorOf(ES, "reviewer"), n.id)).rejects.toMatchObject({
      code: "permission_denied",
    });
    await expect(resendNotification(await actorOf(ES, "admin"), "not-a-uuid")).rejects.toMatchObject({
      code: "not_found",
    });
    expect(await rowOf(n.id)).toMatchObject({ status: "failed" });
    expect(await jobsOf(n.id)).toBe(0);
  });

  it("an error quoting personal data is listed redacted", async () => {
    const admin = await actorOf(ES, "admin");
    const row = await db().notification.create({
      data: {
        tenantId: admin.tenantId,
        kind: "test",
        channel: "slack",
        dedupeKey: `redaction-test:${Date.now()}`,
        status: "failed",
        attempts: 1,
        lastError: "550 mailbox ana.garcia@example.com unknown",
      },
    });
    const listed = (await listNotificationDeliveries(admin)).find((d) => d.id === row.id)!;
    expect(listed.lastError).not.toContain("ana.garcia@example.com");
    expect(listed.lastError).toMatch(/^550 mailbox .*fp:/);
  });
});

describe("Send test", () => {
  it("posts a test message to the configured Slack URL through the outbox and the worker, audited", async () => {
    const admin = await actorOf(ES, "admin");
    const { id } = await sendTestNotification(admin, { channel: "slack" });
    expect(await rowOf(id)).toMatchObject({
      kind: "test",
      channel: "slack",
      status: "pending",
      tenantId: admin.tenantId,
    });
    expect(await jobsOf(id)).toBe(1);
    await worker();
    expect(await rowOf(id)).toMatchObject({ status: "sent", attempts: 1 });
    expect(received).toHaveLength(1);
    expect(received[0]!.text).toMatch(/prueba|test/i);
    expect((await listNotificationDeliveries(admin)).find((d) => d.id === id)).toMatchObject({
      kind: "test",
      status: "sent",
    });
    expect(
      await db().auditEvent.count({
        where: {
          tenantId: admin.tenantId,
          action: "admin:test_notification",
          data: { path: ["after", "notificationId"], equals: id },
        },
      }),
    ).toBe(1);
  });

  it("refuses a channel that is not configured, a bad body and a non-admin, creating nothing", async () => {
    const usAdmin = await actorOf(US, "admin"); // shop-us has no Slack webhook
    const before = await db().notification.count({ where: { tenantId: await tenantIdOf(US) } });
    await expect(sendTestNotification(usAdmin, { channel: "slack" })).rejects.toMatchObject({
      code: "invalid_arguments",
    });
    await expect(sendTestNotification(usAdmin, { channel: "email" })).rejects.toMatchObject({
      code: "invalid_arguments",
    }); // SMTP_URL unset here
    await expect(sendTestNotification(usAdmin, { channel: "sms" })).rejects.toMatchObject({
      code: "invalid_arguments",
    });
    await expect(sendTestNotification(await actorOf(ES, "reviewer"), { channel: "slack" })).rejects.toMatchObject({
      code: "permission_denied",
    });
    expect(await db().notification.count({ where: { tenantId: await tenantIdOf(US) } })).toBe(before);
  });

  describe("with e-mail on", () => {
    let smtp: TestSmtp;
    beforeAll(async () => {
      smtp = await startSmtp();
      process.env.SMTP_URL = smtp.url;
      process.env.MAIL_FROM = "Approvals <approvals@example.test>";
    });
    afterAll(async () => {
      delete process.env.SMTP_URL;
      delete process.env.MAIL_FROM;
      await smtp.close();
    });

    it("mails the admin who asked (never another address); a refused e-mail is retried, failed, resent and delivered", async () => {
      const admin = await actorOf(ES, "admin");
      await expect(sendTestNotification(admin, { channel: "email", to: "someone@else.test" })).rejects.toMatchObject({
        code: "invalid_arguments",
      });
      const { id } = await sendTestNotification(admin, { channel: "email" });
      expect(await rowOf(id)).toMatchObject({ channel: "email", staffUserId: admin.userId });
      smtp.refuseNext.push(...Array<number>(NOTIFICATION_MAX_ATTEMPTS).fill(451));
      expect(await untilSettled(id)).toMatchObject({ status: "failed", lastError: "e-mail not sent (SMTP 451)" });
      expect((await listNotificationDeliveries(admin, { channel: "email" })).find((d) => d.id === id)).toMatchObject({
        recipient: { id: admin.userId, name: admin.name },
        status: "failed",
      });
      await resendNotification(admin, id);
      await worker();
      expect(await rowOf(id)).toMatchObject({ status: "sent" });
      expect(smtp.mails.map((m) => m.to)).toEqual([[admin.email]]);
    });
  });
});
