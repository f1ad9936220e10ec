// Reviewer webhooks end to end: notify inside a transaction (rollback enqueues nothing), the worker
// delivers a signed body without personal data to a real HTTP receiver on 127.0.0.1, retries on 5xx,
// gives up after the last attempt with an audit event, follows no redirects.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { generateWebhookSecret, verifyWebhookSignature } from "@/lib/domain/webhook-signature";
import { generateStandardWebhookSecret, standardWebhookSecretOf } from "@/lib/domain/standard-webhook";
import { db } from "@/lib/server/db/client";
import { sqlPool } from "@/lib/server/db/pg";
import { sql, sqlOf } from "@/lib/server/db/sql";
import { runWorker } from "@/lib/server/jobs/run-worker";
import { runJobsOnce } from "../support/run-jobs-once";
import { notifyReviewersOfProposal, REVIEW_WEBHOOK_MAX_ATTEMPTS } from "@/lib/server/notifications/notify-reviewers";
import { ES, US, makeProposal, minutesFromNow, tenantIdOf } from "./jobs-support";
import { transaction } from "@/lib/server/db/transaction";

type Received = { path: string; headers: IncomingHttpHeaders; body: string };
let server: Server;
let baseUrl: string;
let received: Received[] = [];
/** Status codes the receiver answers with, in order; the last one repeats. */
let script: number[] = [200];
let secret: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      const status = script.length > 1 ? script.shift()! : script[0]!;
      if (status >= 300 && status < 400) res.setHeader("location", `${baseUrl}/elsewhere`);
      res.writeHead(status, { "content-type": "text/plain" });
      res.end(status < 300 ? "ok" : "nope");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(async () => {
  received = [];
  script = [200];
  secret = generateWebhookSecret();
  await db().tenant.update({
    where: { slug: ES },
    data: { reviewWebhookUrl: `${baseUrl}/hook`, reviewWebhookSecret: secret },
  });
});

const worker = runJobsOnce;
const jobsFor = async (deliveryId: string) =>
  (
    await sql<{ id: bigint; attempts: number; run_at: Date; updated_at: Date; last_error: string | null }>`
    SELECT j.id, j.attempts, j.run_at, j.updated_at, j.last_error FROM graphile_worker._private_jobs j
    JOIN graphile_worker._private_tasks t ON t.id = j.task_id
    WHERE t.identifier = 'deliver_review_webhook' AND j.payload->>'deliveryId' = ${deliveryId}`.execute(sqlPool())
  ).rows;
/** The retry backoff is e^attempt seconds; a test makes the waiting job due now instead of sleeping. */
const makeDueNow = (deliveryId: string) =>
  sql`UPDATE graphile_worker._private_jobs SET run_at = now() - interval '1 second' WHERE payload->>'deliveryId' = ${deliveryId}`.execute(
    sqlPool(),
  );

/** The opposite: a waiting job is not due for an hour. */
const holdBack = (deliveryId: string) =>
  sql`UPDATE graphile_worker._private_jobs SET run_at = now() + interval '1 hour' WHERE payload->>'deliveryId' = ${deliveryId}`.execute(
    sqlPool(),
  );

async function notifyCommitted(slug = ES) {
  const proposal = await makeProposal(slug, { expiresAt: minutesFromNow(30) });
  const deliveryId = await transaction((tx) => notifyReviewersOfProposal(sqlOf(tx), proposal));
  return { proposal, deliveryId };
}

describe("reviewer webhook", () => {
  it("enqueues nothing when the transaction rolls back", async () => {
    const proposal = await makeProposal(ES, { expiresAt: minutesFromNow(30) });
    let deliveryId: string | null = null;
    await expect(
      transaction(async (tx) => {
        deliveryId = await notifyReviewersOfProposal(sqlOf(tx), proposal);
        throw new Error("the proposal was not created after all");
      }),
    ).rejects.toThrow("not created");
    expect(deliveryId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await db().webhookDelivery.count({ where: { proposalId: proposal.id } })).toBe(0);
    expect(await jobsFor(deliveryId!)).toHaveLength(0);
    await worker();
    expect(received).toHaveLength(0);
  });

  it("does nothing for a tenant without a webhook", async () => {
    const proposal = await makeProposal(US, { expiresAt: minutesFromNow(30) });
    expect(await transaction((tx) => notifyReviewersOfProposal(sqlOf(tx), proposal))).toBeNull();
    expect(await db().webhookDelivery.count({ where: { proposalId: proposal.id } })).toBe(0);
  });

  it("delivers a signed body without personal data once committed", async () => {
    const { proposal, deliveryId } = await notifyCommitted();
    expect(deliveryId).not.toBeNull();
    expect(await db().webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId! } })).toMatchObject({
      status: "pending",
      attempts: 0,
    });
    expect(await jobsFor(deliveryId!)).toHaveLength(1);

    await worker();

    expect(received).toHaveLength(1);
    const [hit] = received;
    expect(hit!.path).toBe("/hook");
    expect(hit!.headers["content-type"]).toBe("application/json");
    expect(hit!.headers["x-webhook-id"]).toBe(deliveryId);
    const verified = verifyWebhookSignature({
      secret,
      body: hit!.body,
      timestamp: hit!.headers["x-webhook-timestamp"] as string,
      signature: hit!.headers["x-webhook-signature"] as string,
    });
    expect(verified).toEqual({ ok: true });
    // The same body with another secret does not verify (the test could fail).
    expect(
      verifyWebhookSignature({
        secret: generateWebhookSecret(),
        body: hit!.body,
        timestamp: hit!.headers["x-webhook-timestamp"] as string,
        signature: hit!.headers["x-webhook-signature"] as string,
      }).ok,
    ).toBe(false);

    // Standard Webhooks too (issue #36): the spec's reference package verifies the same delivery; the secret of
    // this tenant is an older base64url one, read in standard base64 (the same key bytes).
    const standard = new Webhook(standardWebhookSecretOf(secret)).verify(hit!.body, {
      "webhook-id": hit!.headers["webhook-id"] as string,
      "webhook-timestamp": hit!.headers["webhook-timestamp"] as string,
      "webhook-signature": hit!.headers["webhook-signature"] as string,
    });
    expect(standard).toEqual(JSON.parse(hit!.body));
    expect(hit!.headers["webhook-id"]).toBe(deliveryId);
    expect(() =>
      new Webhook(generateStandardWebhookSecret()).verify(hit!.body, {
        "webhook-id": hit!.headers["webhook-id"] as string,
        "webhook-timestamp": hit!.headers["webhook-timestamp"] as string,
        "webhook-signature": hit!.headers["webhook-signature"] as string,
      }),
    ).toThrow();

    const body = JSON.parse(hit!.body);
    expect(body).toEqual({
      type: "proposal.needs_review",
      id: deliveryId,
      proposal: {
        id: proposal.id,
        kind: "refund",
        hash: proposal.hash,
        amount: { minor: proposal.amountMinor, currency: proposal.currency },
        expiresAt: proposal.expiresAt.toISOString(),
        reviewUrl: expect.stringMatching(new RegExp(`/proposals/${proposal.id}$`)),
      },
      createdAt: expect.any(String),
    });
    const customer = await db().customer.findUniqueOrThrow({
      where: { tenantId_id: { tenantId: proposal.tenantId, id: proposal.customerId } },
    });
    for (const personal of [
      customer.name,
      customer.email,
      proposal.recipientHolder,
      proposal.recipientRef,
      proposal.recipientDisplay,
      "4242",
    ]) {
      expect(hit!.body).not.toContain(personal);
    }
    expect(JSON.stringify(hit!.headers)).not.toContain(secret);

    expect(await db().webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId! } })).toMatchObject({
      status: "delivered",
      attempts: 1,
      lastStatus: 200,
      lastError: null,
    });
    expect(await jobsFor(deliveryId!)).toHaveLength(0);
    const events = await db().auditEvent.findMany({ where: { action: "webhook:delivered", proposalId: proposal.id } });
    expect(events).toHaveLength(1);
    expect(JSON.stringify(events[0])).not.toContain(secret);

    // Re-running the delivery after success sends nothing more.
    await transaction(async (tx) => {
      await sql`SELECT graphile_worker.add_job('deliver_review_webhook', json_build_object('deliveryId', ${deliveryId}::text))`.execute(
        sqlOf(tx),
      );
    });
    await worker();
    expect(received).toHaveLength(1);
  });

  it("retries after a 500 with backoff and then delivers (attempts = 2)", async () => {
    script = [500, 200];
    const { deliveryId } = await notifyCommitted();
    await worker();
    expect(received).toHaveLength(1);
    expect(await db().webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId! } })).toMatchObject({
      status: "pending",
      attempts: 1,
      lastStatus: 500,
      lastError: "HTTP 500",
    });
    const [job] = await jobsFor(deliveryId!);
    expect(job).toMatchObject({ attempts: 1 });
    expect(job!.last_error).toContain("HTTP 500");
    // graphile-worker's backoff: due e^1 s after the failed attempt (measured from the failure, not from
    // now, so a slow machine cannot make it look due already).
    expect(job!.run_at.getTime() - job!.updated_at.getTime()).toBeGreaterThanOrEqual(2_000);

    await holdBack(deliveryId!); // keep it waiting however slow this machine is
    await worker(); // not due yet: nothing is sent
    expect(received).toHaveLength(1);

    await makeDueNow(deliveryId!);
    await worker();
    expect(received).toHaveLength(2);
    expect(received[1]!.headers["x-webhook-id"]).toBe(deliveryId); // same id on retry: receivers deduplicate
    expect(await db().webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId! } })).toMatchObject({
      status: "delivered",
      attempts: 2,
      lastStatus: 200,
      lastError: null,
    });
    expect(await jobsFor(deliveryId!)).toHaveLength(0);
  });

  it("fails after the last attempt with an audit event when the receiver always answers 500", async () => {
    script = [500];
    const { proposal, deliveryId } = await notifyCommitted();
    for (let i = 1; i <= REVIEW_WEBHOOK_MAX_ATTEMPTS; i++) {
      await worker();
      expect(received).toHaveLength(i);
      const row = await db().webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId! } });
      expect(row.attempts).toBe(i);
      expect(row.status).toBe(i < REVIEW_WEBHOOK_MAX_ATTEMPTS ? "pending" : "failed");
      await makeDueNow(deliveryId!);
    }
    await worker();
    expect(received).toHaveLength(REVIEW_WEBHOOK_MAX_ATTEMPTS); // given up: no ninth attempt
    expect(await db().webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId! } })).toMatchObject({
      status: "failed",
      attempts: 8,
      lastStatus: 500,
      deliveredAt: null,
    });
    expect(await jobsFor(deliveryId!)).toHaveLength(0);
    const events = await db().auditEvent.findMany({ where: { action: "webhook:failed", proposalId: proposal.id } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actorType: "system",
      actorId: "worker",
      tenantId: await tenantIdOf(ES),
      proposalHash: proposal.hash,
      traceId: proposal.traceId,
    });
    expect(events[0]!.data).toMatchObject({ attempts: 8, httpStatus: 500, error: "HTTP 500" });
    // Not asserted: data.deliveryId. The audit writer's free-text scrubber (lib/domain/redaction.ts, phone
    // pattern) masks UUIDs whose hyphenated groups hold 9+ digits, even for allow-listed fields, so the
    // stored id is sometimes "…fp:…" — reported to the redaction owner; the proposal id/hash columns are exact.
  });

  it("does not follow redirects", async () => {
    script = [302, 200];
    const { deliveryId } = await notifyCommitted();
    await worker();
    expect(received.map((r) => r.path)).toEqual(["/hook"]);
    expect(await db().webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId! } })).toMatchObject({
      status: "pending",
      attempts: 1,
      lastStatus: 302,
    });
  });

  it("signs with the tenant's current secret (rotated after enqueue)", async () => {
    const { deliveryId } = await notifyCommitted();
    const rotated = generateWebhookSecret();
    await db().tenant.update({ where: { slug: ES }, data: { reviewWebhookSecret: rotated } });
    await worker();
    const hit = received[0]!;
    const check = (s: string) =>
      verifyWebhookSignature({
        secret: s,
        body: hit.body,
        timestamp: hit.headers["x-webhook-timestamp"] as string,
        signature: hit.headers["x-webhook-signature"] as string,
      }).ok;
    expect(check(rotated)).toBe(true);
    expect(check(secret)).toBe(false);
    expect(await db().webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId! } })).toMatchObject({
      status: "delivered",
    });
  });

  it("gives up at once when the webhook was turned off after enqueue", async () => {
    const { deliveryId } = await notifyCommitted();
    await db().tenant.update({ where: { slug: ES }, data: { reviewWebhookUrl: null, reviewWebhookSecret: null } });
    await worker();
    expect(received).toHaveLength(0);
    expect(await db().webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId! } })).toMatchObject({
      status: "failed",
      attempts: 1,
    });
    expect(await jobsFor(deliveryId!)).toHaveLength(0);
  });

  it("is picked up at once by a running worker (runWorker, LISTEN/NOTIFY)", async () => {
    const runner = await runWorker({ databaseUrl: process.env.DATABASE_URL, concurrency: 2, noCron: true });
    try {
      const { deliveryId } = await notifyCommitted();
      let status = "pending";
      for (let i = 0; i < 100 && status === "pending"; i++) {
        await new Promise((r) => setTimeout(r, 100));
        status = (await db().webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId! } })).status;
      }
      expect(status).toBe("delivered");
      // Only this delivery counts: a retry left waiting by an earlier test may be due by now too.
      expect(received.filter((r) => r.headers["x-webhook-id"] === deliveryId)).toHaveLength(1);
    } finally {
      await runner.stop();
    }
  });
});
