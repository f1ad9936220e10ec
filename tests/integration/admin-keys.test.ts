// Agent channels and keys administered in the product: issue (shown once, hash stored), revoke
// (the next gateway call is 401), expiry, per-key call counts; channel secret rotation with an overlap.
import { describe, expect, it } from "vitest";
import { isAppError } from "@/lib/domain/outcome";
import { db } from "@/lib/server/db/client";
import { issueAgentKey } from "@/lib/server/admin/issue-agent-key";
import { revokeAgentKey } from "@/lib/server/admin/revoke-agent-key";
import { createChannel } from "@/lib/server/admin/create-channel";
import { rotateChannelSecret } from "@/lib/server/admin/rotate-channel-secret";
import { listAgentKeys } from "@/lib/server/admin/list-agent-keys";
import { authenticateAgentKey, hashAgentKey } from "@/lib/server/agent/authenticate-agent-key";
import { verifyEndUserToken } from "@/lib/server/agent/verify-end-user";
import { endUserTokenAudience } from "@/lib/domain/agent-protocol";
import { GET as toolsGET } from "@/app/api/agent/tools/route";
import { actorFor, staffOf } from "../support/actors";
import { anthropicCall, ana, channelSecret, ES, headersFor, send, signToken, US } from "./gateway-support";

const adminOf = (slug: string, opts?: { authAgoSeconds?: number }) => actorFor(staffOf(slug, "admin").email, opts);

async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (isAppError(error)) return { code: error.code, reason: error.details?.reason, problem: error.details?.problem };
    throw error;
  }
  throw new Error("expected a refusal");
}

const listTools = async (key: string) => {
  const res = await toolsGET(
    new Request("http://localhost/api/agent/tools", { headers: { authorization: `Bearer ${key}` } }),
  );
  return { status: res.status, body: (await res.json()) as { tools?: { name: string }[] } };
};

describe("agent keys", () => {
  it("issue → shown once, only the hash stored → lists tools and calls them → counted → revoke → 401 at once", async () => {
    const admin = await adminOf(ES);
    const issued = await issueAgentKey(admin, { channel: "web_support", label: "Helpdesk bot" });
    expect(issued.key).toMatch(/^agk_[A-Za-z0-9_-]{43}$/);
    const row = await db().agentKey.findUniqueOrThrow({ where: { id: issued.id } });
    expect(row.keyHash).toBe(hashAgentKey(issued.key));
    expect(JSON.stringify(row)).not.toContain(issued.key);
    const channel = await db().channel.findFirstOrThrow({ where: { tenantId: admin.tenantId, slug: "web_support" } });
    expect([...row.allowedTools].sort()).toEqual([...channel.allowedTools].sort());

    const listed = await listTools(issued.key);
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).toContain("lookup_order");

    const call = await send(anthropicCall("lookup_order", { order_id: "ORD-1001" }), headersFor({ key: issued.key }));
    expect(call.status).toBe(200);
    const keys = await listAgentKeys(admin);
    expect(keys.keys.find((k) => k.id === issued.id)).toMatchObject({
      calls: 1,
      status: "active",
      label: "Helpdesk bot",
      channel: "web_support",
    });
    expect((await db().agentKey.findUniqueOrThrow({ where: { id: issued.id } })).lastUsedAt).toBeInstanceOf(Date);

    const revoked = await revokeAgentKey(admin, issued.id);
    expect(revoked.alreadyRevoked).toBe(false);
    expect((await listTools(issued.key)).status).toBe(401);
    expect(
      (await send(anthropicCall("lookup_order", { order_id: "ORD-1001" }), headersFor({ key: issued.key }))).status,
    ).toBe(401);
    expect((await revokeAgentKey(admin, issued.id)).alreadyRevoked).toBe(true);

    const events = await db().auditEvent.findMany({
      where: { tenantId: admin.tenantId, action: { in: ["admin:issue_agent_key", "admin:revoke_agent_key"] } },
      orderBy: { pos: "asc" },
    });
    expect(events.map((e) => e.action)).toEqual(["admin:issue_agent_key", "admin:revoke_agent_key"]);
    expect(JSON.stringify(events)).not.toContain(issued.key);
    expect(events[1]!.data).toMatchObject({ target: { id: issued.id }, before: { revokedAt: null } });
  });

  it("an expired key gets 401; a key's tools never exceed its channel's; bad input and other tenants refused", async () => {
    const admin = await adminOf(ES);
    expect(
      await refusal(
        issueAgentKey(admin, {
          channel: "web_support",
          label: "x",
          expiresAt: new Date(Date.now() - 1000).toISOString(),
        }),
      ),
    ).toMatchObject({
      code: "invalid_arguments",
      problem: "past",
    });
    // The boundary: an expiry exactly at the moment of issue is already past; one millisecond later is not.
    const at = new Date("2026-06-01T12:00:00.000Z");
    const exactly = { channel: "web_support", label: "boundary", expiresAt: at.toISOString() };
    expect(await refusal(issueAgentKey(admin, exactly, at))).toMatchObject({ problem: "past" });
    expect(await issueAgentKey(admin, exactly, new Date(at.getTime() - 1))).toMatchObject({ expiresAt: at });
    const soon = await issueAgentKey(admin, {
      channel: "web_support",
      label: "short-lived",
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    expect((await authenticateAgentKey(`Bearer ${soon.key}`)).ok).toBe(true);
    await db().agentKey.update({ where: { id: soon.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await authenticateAgentKey(`Bearer ${soon.key}`)).toMatchObject({ ok: false, reason: "expired" });
    expect((await listTools(soon.key)).status).toBe(401);

    const community = await db().channel.findFirstOrThrow({
      where: { tenantId: admin.tenantId, slug: "community_chat" },
    });
    const missing = ["lookup_order", "prepare_refund", "get_refund_status", "create_support_ticket"].find(
      (t) => !community.allowedTools.includes(t),
    )!;
    expect(
      await refusal(issueAgentKey(admin, { channel: "community_chat", label: "x", tools: [missing] })),
    ).toMatchObject({
      code: "invalid_arguments",
      problem: "not_on_channel",
    });
    expect(await refusal(issueAgentKey(admin, { channel: "no_such", label: "x" }))).toMatchObject({
      code: "not_found",
    });
    expect(await refusal(issueAgentKey(admin, { channel: "web_support", label: "" }))).toMatchObject({
      code: "invalid_arguments",
    });
    expect(
      await refusal(issueAgentKey(admin, { channel: "web_support", label: "x", tools: ["drop_tables"] })),
    ).toMatchObject({ code: "invalid_arguments" });

    const usKey = await db().agentKey.findFirstOrThrow({ where: { tenant: { slug: US } } });
    expect(await refusal(revokeAgentKey(admin, usKey.id))).toMatchObject({ code: "not_found" });
    expect((await db().agentKey.findUniqueOrThrow({ where: { id: usKey.id } })).revokedAt).toBeNull();
    const ops = await actorFor(staffOf(ES, "ops").email);
    expect(await refusal(issueAgentKey(ops, { channel: "web_support", label: "x" }))).toMatchObject({
      code: "permission_denied",
    });
    expect(await refusal(revokeAgentKey(ops, soon.id))).toMatchObject({ code: "permission_denied" });
    const stale = await adminOf(ES, { authAgoSeconds: 7200 });
    expect(await refusal(issueAgentKey(stale, { channel: "web_support", label: "x" }))).toMatchObject({
      reason: "step_up_required",
    });
  });
});

describe("channels and their end-user token secret", () => {
  it("create → secret shown once → a key on it verifies tokens signed with it", async () => {
    const admin = await adminOf(US);
    const created = await createChannel(admin, {
      slug: "phone_bot",
      name: "Phone bot",
      allowedTools: ["lookup_order", "get_refund_status"],
    });
    expect(created.secret.length).toBeGreaterThanOrEqual(43);
    const key = await issueAgentKey(admin, { channel: "phone_bot", label: "IVR" });
    const auth = await authenticateAgentKey(`Bearer ${key.key}`);
    if (!auth.ok) throw new Error("key refused");
    expect(auth.caller.tools).toEqual(["lookup_order", "get_refund_status"]);
    const token = await signToken(
      { sub: "cus_x", tenant: US, aud: endUserTokenAudience(US, "phone_bot") },
      created.secret,
    );
    expect(await verifyEndUserToken(token, auth.caller)).toEqual({ ok: true, customerId: "cus_x" });
    const event = await db().auditEvent.findFirstOrThrow({
      where: { tenantId: admin.tenantId, action: "admin:create_channel" },
    });
    expect(JSON.stringify(event)).not.toContain(created.secret);
    expect(
      await refusal(createChannel(admin, { slug: "phone_bot", name: "again", allowedTools: ["lookup_order"] })),
    ).toMatchObject({ problem: "taken" });
    expect(
      await refusal(createChannel(admin, { slug: "Bad Slug", name: "x", allowedTools: ["lookup_order"] })),
    ).toMatchObject({ code: "invalid_arguments" });
  });

  it("rotation with an overlap: old and new tokens both verify until the overlap ends, then only new ones", async () => {
    const admin = await adminOf(ES);
    const channel = await db().channel.findFirstOrThrow({ where: { tenantId: admin.tenantId, slug: "web_support" } });
    const oldToken = await signToken({ sub: ana, tenant: ES }, channelSecret(ES, "web_support"));
    const rotated = await rotateChannelSecret(admin, channel.id, { overlapMinutes: 30 });
    expect(rotated.previousSecretValidUntil!.getTime()).toBeGreaterThan(Date.now() + 29 * 60_000);
    const newToken = await signToken({ sub: ana, tenant: ES }, rotated.secret);
    const callerNow = async () => {
      const a = await authenticateAgentKey(`Bearer ${headersFor().authorization!.slice(7)}`);
      if (!a.ok) throw new Error("demo key refused");
      return a.caller;
    };
    expect(await verifyEndUserToken(oldToken, await callerNow())).toMatchObject({
      ok: true,
      customerId: expect.any(String),
    });
    expect(await verifyEndUserToken(newToken, await callerNow())).toMatchObject({
      ok: true,
      customerId: expect.any(String),
    });
    // Through the gateway, too: the old token still acts for Ana.
    const viaGateway = await send(
      anthropicCall("lookup_order", { order_id: "ORD-1001" }),
      headersFor({ token: oldToken }),
    );
    expect(viaGateway.content.code).toBe("ok");
    const forged = await signToken({ sub: ana, tenant: ES }, "some-other-secret-entirely-000000000000");
    expect(await verifyEndUserToken(forged, await callerNow())).toMatchObject({
      ok: false,
      reason: "bad_signature",
    });

    // The overlap ends.
    await db().channel.update({
      where: { id: channel.id },
      data: { previousSecretValidUntil: new Date(Date.now() - 1000) },
    });
    expect(await verifyEndUserToken(oldToken, await callerNow())).toMatchObject({
      ok: false,
      reason: "bad_signature",
    });
    expect(await verifyEndUserToken(newToken, await callerNow())).toMatchObject({
      ok: true,
      customerId: expect.any(String),
    });

    // Rotation without overlap: the previous secret stops at once.
    const again = await rotateChannelSecret(admin, channel.id, { overlapMinutes: 0 });
    expect(again.previousSecretValidUntil).toBeNull();
    expect(await verifyEndUserToken(newToken, await callerNow())).toMatchObject({
      ok: false,
      reason: "bad_signature",
    });
    expect(
      await verifyEndUserToken(await signToken({ sub: ana, tenant: ES }, again.secret), await callerNow()),
    ).toMatchObject({ ok: true, customerId: expect.any(String) });

    const events = await db().auditEvent.findMany({
      where: { tenantId: admin.tenantId, action: "admin:rotate_channel_secret" },
    });
    expect(events).toHaveLength(2);
    expect(JSON.stringify(events)).not.toContain(rotated.secret);
    expect(JSON.stringify(events)).not.toContain(again.secret);
    expect(await refusal(rotateChannelSecret(admin, channel.id, { overlapMinutes: -1 }))).toMatchObject({
      code: "invalid_arguments",
    });
    const usChannel = await db().channel.findFirstOrThrow({ where: { tenant: { slug: US } } });
    expect(await refusal(rotateChannelSecret(admin, usChannel.id, { overlapMinutes: 5 }))).toMatchObject({
      code: "not_found",
    });
  });
});
