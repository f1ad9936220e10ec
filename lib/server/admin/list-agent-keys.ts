import "server-only";
import { assertCan } from "@/lib/domain/permissions";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";
import { keyListColumns, keyListEntry } from "./key-list";

/**
 * Channels and agent keys of the admin's tenant, with per-key call counts: the number of tool calls the
 * gateway recorded in the audit trail for the key (within the audit retention), so the count costs the
 * gateway no extra write. Never the key hash or a channel secret; only whether an overlap is running.
 */
export async function listAgentKeys(actor: Actor, now = new Date()) {
  assertCan(actor.roles, "admin:manage");
  const tenantId = actor.tenantId;
  const [channels, keys, counts] = await Promise.all([
    db().channel.findMany({
      where: { tenantId },
      orderBy: { slug: "asc" },
      select: {
        id: true,
        slug: true,
        name: true,
        allowedTools: true,
        previousSecretValidUntil: true,
        decisionWebhookUrl: true,
        createdAt: true,
      },
    }),
    db().agentKey.findMany({
      where: { tenantId },
      orderBy: { createdAt: "asc" },
      select: { ...keyListColumns, allowedTools: true, channel: { select: { slug: true } } },
    }),
    db().auditEvent.groupBy({
      by: ["actorId"],
      where: { tenantId, actorType: "agent", action: { startsWith: "tool:" } },
      _count: { _all: true },
    }),
  ]);
  const callsByKey = new Map(counts.map((c) => [c.actorId, c._count._all]));
  return {
    channels: channels.map((c) => ({
      ...c,
      previousSecretValidUntil:
        c.previousSecretValidUntil && c.previousSecretValidUntil > now ? c.previousSecretValidUntil : null,
    })),
    keys: keys.map((k) => ({
      ...keyListEntry(k, now),
      channel: k.channel.slug,
      tools: k.allowedTools,
      calls: callsByKey.get(k.id) ?? 0,
    })),
  };
}
export type AgentKeyList = Awaited<ReturnType<typeof listAgentKeys>>;
