// Decision webhooks (docs/design.md "Decisions reach the agent"): a channel's URL receives every outcome of its
// proposals in the Standard Webhooks format, at least once, through the job queue. A real HTTP receiver on
// 127.0.0.1 verifies each request with the `standardwebhooks` package; the refund is paid by the real
// execution handler against the sandbox provider process.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SandboxControl } from "@/provider-sandbox/control-client";
import { PUT as decisionWebhookPUT } from "@/app/api/admin/channels/[id]/decision-webhook/route";
import { clearDecisionWebhook, setDecisionWebhook } from "@/lib/server/admin/set-decision-webhook";
import { listWebhookDeliveries, resendWebhookDelivery, sendTestWebhook } from "@/lib/server/admin/webhook-deliveries";
import { db } from "@/lib/server/db/client";
import { sqlPool } from "@/lib/server/db/pg";
import { sql } from "@/lib/server/db/sql";
import { transaction } from "@/lib/server/db/transaction";
import { webhookDeliveriesDto, webhookDeliveryDto } from "@/lib/schemas/webhook-delivery-dto";
import { executeRefund } from "@/lib/server/executions/execute-refund";
import { DECISION_WEBHOOK_MAX_ATTEMPTS } from "@/lib/server/notifications/deliver-decision-webhook";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import { editProposalAmount } from "@/lib/server/proposals/edit-proposal-amount";
import { rejectProposal } from "@/lib/server/proposals/reject-proposal";
import { actorFor, staffOf } from "../support/actors";
import { runJobsOnce } from "../support/run-jobs-once";
import { startSandboxProvider, type SandboxProvider } from "../support/sandbox-provider";
import { ES, US } from "./gateway-support";
import { freshCardOrder, prepareThroughGateway, sandboxCardOrder } from "./proposal-support";

type Received = { headers: IncomingHttpHeaders; body: string };
let server: Server;
let hookUrl: string;
let received: Received[] = [];
let answer = 200;
let sandbox: SandboxProvider;
let control: SandboxControl;
let channelId: string;
let secret: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/decisions`;
  sandbox = await startSandboxProvider();
  control = sandbox.control;
  channelId = (await db().channel.findFirstOrThrow({ where: { slug: "web_support", tenant: { slug: ES } } })).id;
});

afterAll(async () => {
  await sandbox?.stop();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const admin = () => actorFor(staffOf(ES, "admin").email);
const reviewer = () => actorFor(staffOf(ES, "reviewer").email);

beforeEach(async () => {
  received = [];
  answer = 200;
  const set = await setDecisionWebhook(await admin(), channelId, {
    url: hookUrl,
    rotateSecret: true,
    overlapMinutes: 0,
  });
  secret = set.secret!;
});

/** Verifies like a receiver would, with the spec's reference package; returns the parsed body. */
function verified(r: Received, withSecret = secret) {
  const headers = {
    "webhook-id": String(r.headers["webhook-id"]),
    "webhook-timestamp": String(r.headers["webhook-timestamp"]),
    "webhook-signature": String(r.headers["webhook-signature"]),
  };
  return new Webhook(withSecret).verify(r.body, headers) as {
    type: string;
    timestamp: string;
    data: Record<string, unknown>;
  };
}

describe("decision webhooks", () => {
  it("a local listener receives proposal.approved then refund.succeeded, each verified with standardwebhooks", async () => {
    const { number, pi } = await sandboxCardOrder(control, 3_300, "DW");
    const p = await prepareThroughGateway(number);
    await approveProposal(await reviewer(), { proposalId: p.id, hash: p.hash });
    expect(await executeRefund(p.id)).toBe("sent");
    await runJobsOnce();
    const events = received.map((r) => verified(r));
    expect(events.map((e) => e.type)).toEqual(["proposal.approved", "refund.succeeded"]);
    expect(events[0]!.data).toEqual({
      proposal_id: p.id,
      // The kind names the outcome events (refund.succeeded…); the subject is what it acts on (the order's id).
      kind: "refund",
      subject: { type: "order", ref: p.orderId },
      status: "approved",
      order_id: number,
      amount: { minor: 3_300, currency: "EUR" },
      trace_id: p.traceId,
    });
    expect(events[1]!.data).toMatchObject({ proposal_id: p.id, kind: "refund", status: "succeeded" });
    expect(pi).toBeTruthy();
    // Ids and amounts only: no customer name, e-mail or payment reference.
    expect(received.map((r) => r.body).join()).not.toMatch(/Ana|@|pi_dw/i);
    const rows = await db().webhookDelivery.findMany({ where: { proposalId: p.id }, orderBy: { createdAt: "asc" } });
    expect(rows.map((r) => [r.event, r.status, r.channelId])).toEqual([
      ["proposal.approved", "delivered", channelId],
      ["refund.succeeded", "delivered", channelId],
    ]);
    expect(received.map((r) => r.headers["webhook-id"])).toEqual(rows.map((r) => r.id));
  });

  it("rejected carries the customer message (never the internal note); superseded carries the successor", async () => {
    const a = await prepareThroughGateway((await freshCardOrder(2_000, { prefix: "DW" })).number);
    await rejectProposal(await reviewer(), {
      proposalId: a.id,
      hash: a.hash,
      reason: "Item not returned yet",
      internalNote: "customer is rude",
    });
    const b = await prepareThroughGateway((await freshCardOrder(2_500, { prefix: "DW" })).number);
    const edited = await editProposalAmount(await reviewer(), { proposalId: b.id, hash: b.hash, amountMinor: 2_000 });
    await runJobsOnce();
    const events = received.map((r) => verified(r));
    expect(events.find((e) => e.data.proposal_id === a.id)).toMatchObject({
      type: "proposal.rejected",
      data: { reason: "Item not returned yet" },
    });
    expect(received.map((r) => r.body).join()).not.toContain("rude");
    expect(events.find((e) => e.data.proposal_id === b.id)).toMatchObject({
      type: "proposal.superseded",
      data: {
        status: "invalidated",
        superseded_by: { proposal_id: edited.proposalId, status: "pending_approval", amount: { minor: 2_000 } },
      },
    });
  });

  it("retries a failed attempt with the same webhook-id (at least once), through the job queue", async () => {
    const p = await prepareThroughGateway((await freshCardOrder(2_100, { prefix: "DW" })).number);
    answer = 503;
    await db().proposal.update({ where: { id: p.id }, data: { status: "expired" } });
    await runJobsOnce();
    const [row] = await db().webhookDelivery.findMany({ where: { proposalId: p.id } });
    expect(row).toMatchObject({ event: "proposal.expired", status: "pending", attempts: 1, lastStatus: 503 });
    const {
      rows: [job],
    } = await sql<{ max_attempts: number; key: string }>`
      SELECT j.max_attempts, j.key FROM graphile_worker._private_jobs j WHERE j.payload->>'deliveryId' = ${row!.id}`.execute(
      sqlPool(),
    );
    expect(job!.key).toBe(`deliver_decision_webhook:${row!.id}`);
    expect(job!.max_attempts).toBe(DECISION_WEBHOOK_MAX_ATTEMPTS);
    // The history shows when the worker tries again: the job's run_at after the backoff (Admin → deliveries).
    const {
      rows: [next],
    } = await sql<{
      runAt: Date;
    }>`SELECT run_at AS "runAt" FROM graphile_worker._private_jobs WHERE key = ${job!.key}`.execute(sqlPool());
    const pending = (await listWebhookDeliveries(await admin(), { channelId })).find((d) => d.id === row!.id);
    expect(pending).toMatchObject({ status: "pending", attempts: 1, nextAttemptAt: next!.runAt.toISOString() });
    expect(Date.parse(pending!.nextAttemptAt!)).toBeGreaterThan(Date.now());
    answer = 200;
    await sql`UPDATE graphile_worker._private_jobs SET run_at = now() - interval '1 second' WHERE payload->>'deliveryId' = ${row!.id}`.execute(
      sqlPool(),
    );
    await runJobsOnce();
    expect(await db().webhookDelivery.findUniqueOrThrow({ where: { id: row!.id } })).toMatchObject({
      status: "delivered",
      attempts: 2,
    });
    expect((await listWebhookDeliveries(await admin(), { channelId })).find((d) => d.id === row!.id)).toMatchObject({
      status: "delivered",
      nextAttemptAt: null,
    });
    expect(received).toHaveLength(2);
    expect(received[0]!.headers["webhook-id"]).toBe(received[1]!.headers["webhook-id"]);
    expect(verified(received[1]!).type).toBe("proposal.expired");
  });

  it("a rolled-back change sends nothing; a change on a channel without a webhook sends nothing", async () => {
    const p = await prepareThroughGateway((await freshCardOrder(2_200, { prefix: "DW" })).number);
    await transaction(async (tx) => {
      await tx.proposal.update({ where: { id: p.id }, data: { status: "expired" } });
      throw new Error("roll back");
    }).catch(() => undefined);
    await clearDecisionWebhook(await admin(), channelId);
    await db().proposal.update({ where: { id: p.id }, data: { status: "expired" } });
    await runJobsOnce();
    expect(await db().webhookDelivery.count({ where: { proposalId: p.id } })).toBe(0);
    expect(received).toHaveLength(0);
  });

  it("after a rotation both secrets verify during the overlap; with no overlap only the new one", async () => {
    const old = secret;
    const rotated = await setDecisionWebhook(await admin(), channelId, {
      url: hookUrl,
      rotateSecret: true,
      overlapMinutes: 60,
    });
    expect(rotated.secret).not.toBe(old);
    expect(rotated.previousSecretValidUntil).not.toBeNull();
    const p = await prepareThroughGateway((await freshCardOrder(2_300, { prefix: "DW" })).number);
    await db().proposal.update({ where: { id: p.id }, data: { status: "expired" } });
    await runJobsOnce();
    expect(String(received[0]!.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verified(received[0]!, old).type).toBe("proposal.expired");
    expect(verified(received[0]!, rotated.secret!).type).toBe("proposal.expired");

    const again = await setDecisionWebhook(await admin(), channelId, {
      url: hookUrl,
      rotateSecret: true,
      overlapMinutes: 0,
    });
    const q = await prepareThroughGateway((await freshCardOrder(2_400, { prefix: "DW" })).number);
    await db().proposal.update({ where: { id: q.id }, data: { status: "expired" } });
    await runJobsOnce();
    const last = received.at(-1)!;
    expect(String(last.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    expect(verified(last, again.secret!).type).toBe("proposal.expired");
    expect(() => verified(last, rotated.secret!)).toThrow();
  });

  it("a PUT without rotateSecret keeps the secret and does not show it again", async () => {
    const same = await setDecisionWebhook(await admin(), channelId, { url: hookUrl });
    expect(same.secret).toBeNull();
    expect((await db().channel.findUniqueOrThrow({ where: { id: channelId } })).decisionWebhookSecret).toBe(secret);
  });

  it("admins only, own tenant only, public URLs only (outside the demo), through the route", async () => {
    await expect(setDecisionWebhook(await reviewer(), channelId, { url: hookUrl })).rejects.toMatchObject({
      code: "permission_denied",
    });
    const foreign = await actorFor(staffOf(US, "admin").email);
    await expect(setDecisionWebhook(foreign, channelId, { url: hookUrl })).rejects.toMatchObject({ code: "not_found" });
    await expect(setDecisionWebhook(await admin(), channelId, { url: "ftp://example.com/x" })).rejects.toMatchObject({
      code: "invalid_arguments",
    });
    await expect(
      setDecisionWebhook(await admin(), channelId, { url: "https://user:pw@example.com/x" }),
    ).rejects.toMatchObject({ code: "invalid_arguments" });
    // The route refuses a request without a session (or from another origin) in the common JSON error shape.
    const res = await decisionWebhookPUT(
      new Request(`http://localhost/api/admin/channels/${channelId}/decision-webhook`, { method: "PUT", body: "{}" }),
      {
        params: Promise.resolve({ id: channelId }),
      },
    );
    expect([401, 403]).toContain(res.status);
    expect(await res.json()).toMatchObject({ code: expect.stringMatching(/^(unauthenticated|permission_denied)$/) });
  });

  it("delivery history per target, resend with the same webhook-id, and send test — decision and reviewer webhooks", async () => {
    const test = await sendTestWebhook(await admin(), channelId);
    await runJobsOnce();
    expect(verified(received[0]!)).toMatchObject({ type: "webhook.test", data: { channel_id: channelId } });
    const history = await listWebhookDeliveries(await admin(), { channelId });
    expect(history[0]).toMatchObject({
      id: test.id,
      target: "decision",
      event: "webhook.test",
      status: "delivered",
      attempts: 1,
      lastStatus: 200,
    });
    // The answer matches the DTO the OpenAPI document describes the route with (strictly: no field more or less).
    expect(webhookDeliveriesDto.strict().parse({ deliveries: history }).deliveries).toHaveLength(history.length);
    expect(() => webhookDeliveryDto.strict().parse(history[0])).not.toThrow();

    const again = await resendWebhookDelivery(await admin(), test.id);
    expect(again).toEqual({ id: test.id, status: "pending" });
    // A second click while it is pending does not enqueue it twice.
    await expect(resendWebhookDelivery(await admin(), test.id)).rejects.toMatchObject({ code: "permission_denied" });
    await runJobsOnce();
    expect(received).toHaveLength(2);
    expect(received[1]!.headers["webhook-id"]).toBe(test.id);
    expect(await db().webhookDelivery.findUniqueOrThrow({ where: { id: test.id } })).toMatchObject({
      status: "delivered",
      attempts: 1,
    });

    // The reviewer webhook (tenant-wide, its own signature scheme) has the same history, resend and test.
    await db().tenant.update({
      where: { slug: ES },
      data: { reviewWebhookUrl: `${hookUrl}/review`, reviewWebhookSecret: "whsec_review_test_secret" },
    });
    try {
      const reviewTest = await sendTestWebhook(await admin(), null);
      await runJobsOnce();
      expect(received.at(-1)!.headers["x-webhook-id"]).toBe(reviewTest.id);
      expect((await listWebhookDeliveries(await admin(), { target: "review" }))[0]).toMatchObject({
        id: reviewTest.id,
        target: "review",
        status: "delivered",
      });
      expect(
        (await listWebhookDeliveries(await admin(), { target: "review" })).every((d) => d.target === "review"),
      ).toBe(true);
    } finally {
      await db().tenant.update({ where: { slug: ES }, data: { reviewWebhookUrl: null, reviewWebhookSecret: null } });
    }
    await expect(sendTestWebhook(await admin(), null)).rejects.toMatchObject({ code: "invalid_arguments" });
  });

  it("history, resend and test are the admin's own tenant's only", async () => {
    const test = await sendTestWebhook(await admin(), channelId);
    const foreign = await actorFor(staffOf(US, "admin").email);
    expect((await listWebhookDeliveries(foreign, {})).map((d) => d.id)).not.toContain(test.id);
    await expect(resendWebhookDelivery(foreign, test.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(sendTestWebhook(foreign, channelId)).rejects.toMatchObject({ code: "not_found" });
    await expect(listWebhookDeliveries(await reviewer(), {})).rejects.toMatchObject({ code: "permission_denied" });
    await runJobsOnce();
  });
});
