// The Slack-compatible incoming webhook end to end: an admin sets it, the agent prepares a refund, the
// worker POSTs a Block Kit message to a real HTTP receiver on 127.0.0.1. E-mail is off in this file (no
// SMTP_URL): no e-mail rows are created at all.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { formatMinor } from "@/lib/domain/format-money";
import { db } from "@/lib/server/db/client";
import { sqlPool } from "@/lib/server/db/pg";
import { sql } from "@/lib/server/db/sql";
import { remindExpiringProposals } from "@/lib/server/notifications/enqueue-notifications";
import { purgeOldNotifications } from "@/lib/server/notifications/purge-notifications";
import {
  checkSlackWebhookUrl,
  getSlackWebhookSettings,
  setSlackWebhook,
} from "@/lib/server/notifications/slack-webhook-settings";
import { actorOf } from "./audit-support";
import { ES, makeProposal, minutesFromNow, US } from "./jobs-support";
import { worker } from "./notifications-support";
import { preparedForFreshOrder } from "./proposal-support";

type Received = { path: string; contentType: string | undefined; body: string };
let server: Server;
let hookUrl: string;
let received: Received[] = [];
let answer = 200;
const base = "http://approvals.test";

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({
        path: req.url ?? "",
        contentType: req.headers["content-type"],
        body: Buffer.concat(chunks).toString("utf8"),
      });
      res.writeHead(answer, { "content-type": "text/plain" });
      res.end(answer === 200 ? "ok" : "invalid_payload");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/services/T000/B000/secretpart`;
  process.env.APP_URL = base;
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

type Block = {
  type: string;
  text?: { type: string; text: string };
  fields?: { type: string; text: string }[];
  elements?: { type: string; url: string; text: { text: string } }[];
};

describe("Slack-compatible webhook", () => {
  it("gets a Block Kit message with header, amount, masked recipient, expiry and a button to the proposal", async () => {
    const { proposal } = await preparedForFreshOrder(4_321);
    const rows = await db().notification.findMany({ where: { proposalId: proposal.id } });
    expect(rows.map((r) => [r.kind, r.channel])).toEqual([["new_proposal", "slack"]]); // no e-mail rows: SMTP is off

    await worker();
    expect(received).toHaveLength(1);
    expect(received[0]!.path).toBe("/services/T000/B000/secretpart");
    expect(received[0]!.contentType).toBe("application/json");
    const body = JSON.parse(received[0]!.body) as { text: string; blocks: Block[] };
    const amount = formatMinor(4_321, "EUR", "es-ES");
    expect(body.blocks.map((b) => b.type)).toEqual(["header", "section", "actions"]);
    expect(body.blocks[0]!.text).toEqual({ type: "plain_text", text: "Reembolso pendiente de revisión", emoji: false });
    const fields = body.blocks[1]!.fields!;
    expect(fields.map((f) => f.type)).toEqual(["mrkdwn", "mrkdwn", "mrkdwn"]);
    expect(fields[0]!.text).toBe(`*Importe*\n${amount}`);
    expect(fields[1]!.text).toBe("*Destinatario*\nVisa •••• 4242");
    const unix = Math.floor(proposal.expiresAt.getTime() / 1000);
    expect(fields[2]!.text).toMatch(
      new RegExp(`^\\*Caduca\\*\\n<!date\\^${unix}\\^\\{date_short_pretty\\} \\{time\\}\\|.+ UTC \\(.+\\)>$`),
    );
    const button = body.blocks[2]!.elements![0]!;
    expect(button).toMatchObject({
      type: "button",
      url: `${base}/proposals/${proposal.id}`,
      text: { text: "Revisar propuesta" },
    });
    expect(body.text).toContain(amount);
    // Nothing beyond what a reviewer sees: no holder name, no provider payment reference, no hash.
    expect(received[0]!.body).not.toContain("Test Holder");
    expect(received[0]!.body).not.toContain(proposal.recipientRef);
    expect(received[0]!.body).not.toContain(proposal.hash);
    expect(await db().notification.findFirstOrThrow({ where: { proposalId: proposal.id } })).toMatchObject({
      status: "sent",
      attempts: 1,
    });
  });

  it("the reminder goes to the channel once; another tenant's proposal never does", async () => {
    const p = await makeProposal(ES, { expiresAt: minutesFromNow(5), amountMinor: 990 });
    await db().proposal.update({ where: { id: p.id }, data: { createdAt: minutesFromNow(-25) } });
    const us = await makeProposal(US, { expiresAt: minutesFromNow(5) });
    await db().proposal.update({ where: { id: us.id }, data: { createdAt: minutesFromNow(-25) } });
    await remindExpiringProposals();
    await remindExpiringProposals();
    await worker();
    expect(received).toHaveLength(1);
    const body = JSON.parse(received[0]!.body) as { blocks: Block[] };
    expect(body.blocks[0]!.text!.text).toBe("La revisión de un reembolso caduca pronto");
    expect(body.blocks[2]!.elements![0]!.url).toBe(`${base}/proposals/${p.id}`);
    expect(await db().notification.count({ where: { proposalId: us.id } })).toBe(0);
  });

  it("a 4xx answer is retried; turning Slack off skips what is still pending", async () => {
    answer = 400;
    const { proposal } = await preparedForFreshOrder(1_111);
    await worker();
    const row = await db().notification.findFirstOrThrow({ where: { proposalId: proposal.id } });
    expect(row).toMatchObject({ status: "pending", attempts: 1, lastError: "HTTP 400" });
    await setSlackWebhook(await actorOf(ES, "admin"), { intent: "clear" });
    await sql`UPDATE graphile_worker._private_jobs SET run_at = now() - interval '1 second'`.execute(sqlPool());
    await worker();
    expect(received).toHaveLength(1);
    expect(await db().notification.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({ status: "skipped" });
  });
});

describe("Slack webhook setting", () => {
  it("admins only; stored, shown and audited by host only", async () => {
    const admin = await actorOf(ES, "admin");
    expect(await getSlackWebhookSettings(admin)).toEqual({ host: new URL(hookUrl).host });
    await expect(setSlackWebhook(await actorOf(ES, "reviewer"), { intent: "clear" })).rejects.toMatchObject({
      code: "permission_denied",
    });
    await expect(setSlackWebhook(admin, { intent: "save", url: "not a url" })).rejects.toMatchObject({
      code: "invalid_arguments",
      details: { problem: "invalid" },
    });
    await expect(setSlackWebhook(admin, { intent: "save", url: "ftp://hooks.example.com/x" })).rejects.toMatchObject({
      details: { problem: "protocol" },
    });
    const events = await db().auditEvent.findMany({
      where: { tenantId: admin.tenantId, action: "admin:set_slack_webhook" },
    });
    expect(events.length).toBeGreaterThan(0);
    expect(JSON.stringify(events)).not.toContain("secretpart");
    // The US tenant's setting is untouched by the ES admin.
    expect(await getSlackWebhookSettings(await actorOf(US, "admin"))).toEqual({ host: null });
  });

  it("outside the demo: https only, no internal addresses (SSRF)", () => {
    expect(checkSlackWebhookUrl("https://hooks.slack.com/services/T/B/x", false)).toMatchObject({ ok: true });
    expect(checkSlackWebhookUrl("http://hooks.slack.com/services/T/B/x", false)).toEqual({
      ok: false,
      problem: "https_required",
    });
    expect(checkSlackWebhookUrl("https://169.254.169.254/latest", false)).toEqual({
      ok: false,
      problem: "private_address",
    });
    expect(checkSlackWebhookUrl("https://10.0.0.8/hook", false)).toEqual({ ok: false, problem: "private_address" });
    expect(checkSlackWebhookUrl("https://user:pw@hooks.slack.com/x", false)).toEqual({
      ok: false,
      problem: "credentials",
    });
    expect(checkSlackWebhookUrl("http://127.0.0.1:9/x", true)).toMatchObject({ ok: true });
  });
});

describe("retention", () => {
  it("deletes finished notifications after 30 days, never a pending one", async () => {
    const tenantId = (await actorOf(ES, "admin")).tenantId;
    const old = new Date(Date.now() - 31 * 86_400_000);
    const row = (status: "sent" | "skipped" | "failed" | "pending", createdAt: Date) => ({
      tenantId,
      kind: "new_proposal" as const,
      channel: "slack" as const,
      dedupeKey: `purge-test:${status}:${createdAt.getTime()}`,
      status,
      createdAt,
    });
    await db().notification.createMany({
      data: [row("sent", old), row("skipped", old), row("failed", old), row("pending", old), row("sent", new Date())],
    });
    expect(await purgeOldNotifications()).toBe(3);
    const left = await db().notification.findMany({
      where: { dedupeKey: { startsWith: "purge-test:" } },
      select: { status: true },
    });
    expect(left.map((r) => r.status).sort()).toEqual(["pending", "sent"]);
  });
});
