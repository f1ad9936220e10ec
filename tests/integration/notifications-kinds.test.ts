// Notifications of a proposal of another kind than the refund (docs/action-kinds.md), end to end against the real
// database, a real SMTP server and a local HTTP listener standing in for Slack and the reviewer webhook: an
// address change prepared through the gateway (prepare_address_change → insertKindProposal) notifies the tenant's
// reviewers by e-mail, its Slack channel and its reviewer webhook in the prepare's transaction; the worker delivers
// each (sent, not failed) naming the kind and the order — never the new street or the customer's name; the
// about-to-expire reminder and the in-doubt alert of its execution go out too; a kind this release does not know
// is skipped with its reason, never thrown on.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { executionStatus } from "@/lib/domain/execution-state";
import { proposalStatus as P } from "@/lib/domain/proposal-state";
import { generateWebhookSecret } from "@/lib/domain/webhook-signature";
import { authenticateAgentKey, type AgentCaller } from "@/lib/server/agent/authenticate-agent-key";
import { executeToolCall } from "@/lib/server/agent/execute-tool-call";
import { setActionEndpoint } from "@/lib/server/admin/action-endpoint/set-action-endpoint";
import { db } from "@/lib/server/db/client";
import { transaction } from "@/lib/server/db/transaction";
import {
  alertStaleSendingExecutions,
  notifyOpsOfInDoubt,
  NOTIFICATION_MAX_ATTEMPTS,
  remindExpiringProposals,
} from "@/lib/server/notifications/enqueue-notifications";
import { setSlackWebhook } from "@/lib/server/notifications/slack-webhook-settings";
import { consentTo } from "../support/consent";
import { findFreePort } from "../../scripts/lib/embedded-postgres";
import { actorFor, staffOf } from "../support/actors";
import { ADDRESS_CHANGE_TOOL, allowAddressChangeTool, copyDemoOrder } from "../support/address-change-shop";
import { actorOf } from "./audit-support";
import { ES, ana, tokenFor, webKey } from "./gateway-support";
import { makeNotificationJobsDue, startSmtp, worker, type TestSmtp } from "./notifications-support";

const TOOL = ADDRESS_CHANGE_TOOL;
const base = "http://approvals.test";
const LUCIA = "lucia.revisora@tienda-es.test";
const JAVIER = "javier.revisor@tienda-es.test";
/** What must never leave in a notification: the new street, its postal code, the customer's (recipient's) name. */
const PERSONAL = ["Alcalá", "Alcala", "28014", "Ana García", "Ana Garc"];

let smtp: TestSmtp;
let http: Server;
let httpBase: string;
let received: { path: string; body: string }[] = [];
let caller: AgentCaller;
let seq = 0;

beforeAll(async () => {
  smtp = await startSmtp();
  process.env.SMTP_URL = smtp.url;
  process.env.MAIL_FROM = "Approvals <approvals@example.test>";
  process.env.APP_URL = base;
  process.env.SECRETS_KEY = randomBytes(32).toString("base64");
  http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ path: req.url ?? "", body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  httpBase = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;

  // The shop's action endpoint is configured (prepare refuses a tenant without one) but nothing listens there:
  // an approved change's POST finds no connection, and its outcome is unknown — in doubt.
  const admin = await actorFor(staffOf(ES, "admin").email);
  await setActionEndpoint(admin, { url: `http://127.0.0.1:${await findFreePort()}/actions` });
  await allowAddressChangeTool([ES]);
  const auth = await authenticateAgentKey(`Bearer ${webKey(ES)}`);
  if (!auth.ok) throw new Error("demo agent key refused");
  caller = auth.caller;
});

afterAll(async () => {
  for (const k of ["SMTP_URL", "MAIL_FROM", "APP_URL", "SECRETS_KEY"]) delete process.env[k];
  await smtp.close();
  await new Promise<void>((resolve) => http.close(() => resolve()));
});

beforeEach(async () => {
  smtp.mails.length = 0;
  received = [];
  await setSlackWebhook(await actorOf(ES, "admin"), { intent: "save", url: `${httpBase}/services/T1/B1/secret` });
  await db().tenant.update({
    where: { slug: ES },
    data: { reviewWebhookUrl: `${httpBase}/review`, reviewWebhookSecret: generateWebhookSecret() },
  });
});

/** A fresh unfulfilled order of ana's (her ORD-1001 copied under a new number). */
const freshOrder = () => copyDemoOrder("N");

/** prepare_address_change through the gateway, as the agent calls it: the one real path to a kind's proposal. */
async function prepareAddressChange(): Promise<{ id: string; hash: string; number: string }> {
  const number = await freshOrder();
  const { outcome, proposal } = await executeToolCall(
    caller,
    {
      traceId: `notif-${randomUUID()}`,
      transport: "anthropic",
      callId: `toolu_${++seq}`,
      endUserToken: await tokenFor(ES, ana),
      model: null,
      promptVersion: null,
    },
    TOOL,
    {
      order_id: number,
      new_address: {
        name: "Ana García",
        line1: "Calle de Alcalá 50",
        line2: null,
        city: "Madrid",
        postal_code: "28014",
        region: null,
        country: "ES",
      },
    },
  );
  expect(outcome).toMatchObject({ code: "approval_required", result: { kind: "change_shipping_address" } });
  return { id: proposal!.id, hash: proposal!.hash, number };
}

const notificationsOf = (where: { proposalId?: string; executionId?: string }) =>
  db().notification.findMany({ where, orderBy: [{ channel: "asc" }, { createdAt: "asc" }] });
const everything = () => JSON.stringify({ mails: smtp.mails, received });

describe("a new address-change proposal", () => {
  it("notifies reviewers by e-mail, Slack and webhook in its transaction; each is sent naming kind and order, without the address", async () => {
    const p = await prepareAddressChange();
    // Recorded with the proposal (insertKindProposal → notifyReviewersOfProposal), before any worker ran.
    const rows = await notificationsOf({ proposalId: p.id });
    expect(rows.map((r) => [r.kind, r.channel, r.status])).toEqual([
      ["new_proposal", "email", "pending"],
      ["new_proposal", "email", "pending"],
      ["new_proposal", "slack", "pending"],
    ]);
    expect(await db().webhookDelivery.count({ where: { proposalId: p.id } })).toBe(1);

    await worker();
    expect((await notificationsOf({ proposalId: p.id })).map((r) => [r.status, r.lastError])).toEqual([
      ["sent", null],
      ["sent", null],
      ["sent", null],
    ]);
    expect(smtp.mails.flatMap((m) => m.to).sort()).toEqual([JAVIER, LUCIA]);
    for (const mail of smtp.mails) {
      // The ES tenant's reviewers read Spanish.
      expect(mail.subject).toMatch(
        new RegExp(`^Por revisar: Cambio de dirección de envío, pedido ${p.number} — caduca`),
      );
      expect(mail.text).toContain(`Pedido: ${p.number}`);
      expect(mail.text).toContain(`${base}/proposals/${p.id}`);
      expect(mail.text).not.toMatch(/reembolso/i);
    }
    const slack = received.find((r) => r.path.startsWith("/services/"));
    expect(JSON.parse(slack!.body)).toMatchObject({
      text: expect.stringContaining(`pedido ${p.number}`),
      blocks: [{ type: "header", text: { text: "Cambio de dirección de envío: pendiente de revisión" } }, {}, {}],
    });
    const hook = received.find((r) => r.path === "/review");
    expect(JSON.parse(hook!.body)).toMatchObject({
      type: "proposal.needs_review",
      proposal: { id: p.id, kind: "change_shipping_address", hash: p.hash },
    });
    expect(JSON.parse(hook!.body).proposal).not.toHaveProperty("amount");
    expect(await db().webhookDelivery.findFirstOrThrow({ where: { proposalId: p.id } })).toMatchObject({
      status: "delivered",
    });
    for (const value of PERSONAL) expect(everything()).not.toContain(value);
  });

  it("is reminded before it expires, by the same sweep as refunds, without the address", async () => {
    const p = await prepareAddressChange();
    await worker();
    smtp.mails.length = 0;
    received = [];
    // Its life (30 min) is longer than the reminder window, and it expires in 5 minutes.
    await db().proposal.update({
      where: { id: p.id },
      data: { createdAt: new Date(Date.now() - 25 * 60_000), expiresAt: new Date(Date.now() + 5 * 60_000) },
    });
    expect((await remindExpiringProposals()).created).toBeGreaterThanOrEqual(3);
    await worker();
    const reminders = await db().notification.findMany({ where: { proposalId: p.id, kind: "expiring" } });
    expect(reminders.map((r) => r.status)).toEqual(["sent", "sent", "sent"]);
    expect(smtp.mails.map((m) => m.subject)).toEqual([
      expect.stringMatching(new RegExp(`^Caduca pronto: Cambio de dirección de envío, pedido ${p.number} — `)),
      expect.stringMatching(new RegExp(`^Caduca pronto: Cambio de dirección de envío, pedido ${p.number} — `)),
    ]);
    expect(received.map((r) => JSON.parse(r.body).blocks[0].text.text)).toEqual([
      "Cambio de dirección de envío: la revisión caduca pronto",
    ]);
    for (const value of PERSONAL) expect(everything()).not.toContain(value);
  });

  it("a kind this release does not know is skipped with its reason, not retried into failure", async () => {
    const p = await prepareAddressChange();
    // As if a newer release wrote it (read after a rollback): its kind is absent from this release's registry.
    await db().proposal.update({ where: { id: p.id }, data: { kind: "cancel_order_from_the_future" } });
    await worker();
    expect((await notificationsOf({ proposalId: p.id })).map((r) => [r.status, r.lastError])).toEqual([
      ["skipped", "unknown action kind cancel_order_from_the_future"],
      ["skipped", "unknown action kind cancel_order_from_the_future"],
      ["skipped", "unknown action kind cancel_order_from_the_future"],
    ]);
    expect(smtp.mails).toEqual([]);
    expect(received.filter((r) => r.path.startsWith("/services/"))).toEqual([]);
  });
});

describe("a message that cannot be built", () => {
  it("is retried like a failed send and ends failed with its reason, not pending with no job left", async () => {
    const tenant = await db().tenant.findUniqueOrThrow({ where: { slug: ES } });
    // Bad data the message builder chokes on (formatting the expiry in the tenant's zone throws).
    await db().tenant.update({ where: { id: tenant.id }, data: { timeZone: "Mars/Olympus_Mons" } });
    try {
      const p = await prepareAddressChange();
      await worker();
      const first = await notificationsOf({ proposalId: p.id });
      expect(first.map((r) => [r.status, r.attempts])).toEqual([
        ["pending", 1],
        ["pending", 1],
        ["pending", 1],
      ]);
      expect(first[0]!.lastError).toMatch(/^message not built: .*time ?zone/i);
      for (let i = 1; i < NOTIFICATION_MAX_ATTEMPTS; i++) {
        await makeNotificationJobsDue();
        await worker();
      }
      expect((await notificationsOf({ proposalId: p.id })).map((r) => [r.status, r.attempts])).toEqual([
        ["failed", NOTIFICATION_MAX_ATTEMPTS],
        ["failed", NOTIFICATION_MAX_ATTEMPTS],
        ["failed", NOTIFICATION_MAX_ATTEMPTS],
      ]);
      expect(smtp.mails).toEqual([]);
    } finally {
      await db().tenant.update({ where: { id: tenant.id }, data: { timeZone: tenant.timeZone } });
    }
  });
});

describe("the in-doubt alert of an address change's execution", () => {
  const OPS = "operaciones@tienda-es.test";

  /** Prepared, approved and executed by the worker: the POST finds nothing listening, so the outcome is unknown. */
  async function inDoubtExecution() {
    const p = await prepareAddressChange();
    await consentTo(await actorFor(staffOf(ES, "reviewer").email), p);
    await worker();
    const ex = await db().execution.findUniqueOrThrow({ where: { proposalId: p.id } });
    expect(ex.status).toBe(executionStatus.unknown);
    expect(await db().proposal.findUniqueOrThrow({ where: { id: p.id } })).toMatchObject({
      status: P.needsReconciliation,
    });
    return { p, ex };
  }

  function expectAlert(p: { number: string }, ex: { id: string }) {
    const alerts = smtp.mails.filter((m) => m.subject.startsWith("Ejecución en duda"));
    expect(alerts.flatMap((m) => m.to)).toContain(OPS);
    for (const mail of alerts) {
      expect(mail.subject).toBe(`Ejecución en duda: Cambio de dirección de envío, pedido ${p.number}`);
      expect(mail.text).toContain(`Pedido: ${p.number}`);
      expect(mail.text).toContain("Último error: ");
      expect(mail.text).toContain(`${base}/executions/${ex.id}`);
    }
    for (const value of PERSONAL) expect(everything()).not.toContain(value);
  }

  it("an execution gone unknown: the alert ops get is sent with kind, order, last error and the execution's link", async () => {
    smtp.mails.length = 0;
    const { p, ex } = await inDoubtExecution();
    // The action endpoint's executor records the alert in the transaction that records `unknown` (as the refund's
    // apply-provider-answer.ts does); the same worker run delivers it.
    await worker();
    const rows = await notificationsOf({ executionId: ex.id });
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(rows.map((r) => [r.kind, r.status, r.lastError])).toEqual(rows.map(() => ["in_doubt", "sent", null]));
    expectAlert(p, ex);
    // Once per execution and person: recording it again (a second worker) adds nothing.
    expect(await transaction((tx) => notifyOpsOfInDoubt(tx, ex))).toEqual([]);
  });

  it("an execution stuck in sending past the stale threshold: the sweep's alert is sent too", async () => {
    const { p, ex } = await inDoubtExecution();
    // A worker that died after the POST, before it recorded anything (so no alert was made): still `sending`, its last
    // attempt an hour ago.
    await db().notification.deleteMany({ where: { executionId: ex.id } });
    smtp.mails.length = 0;
    await db().execution.update({
      where: { id: ex.id },
      data: { status: executionStatus.sending, lastAttemptAt: new Date(Date.now() - 3_600_000) },
    });
    expect((await alertStaleSendingExecutions()).created).toBeGreaterThanOrEqual(1);
    await worker();
    const rows = await notificationsOf({ executionId: ex.id });
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(rows.map((r) => r.status)).toEqual(rows.map(() => "sent"));
    expectAlert(p, ex);
  });
});
