import "server-only";
import { AppError } from "@/lib/domain/outcome";
import { assertCan } from "@/lib/domain/permissions";
import { issueAgentKeyInput } from "@/lib/schemas/admin";
import { hashAgentKey } from "@/lib/server/agent/authenticate-agent-key";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";
import { recordAdminEvent } from "./admin-audit";
import { credentialToIssue } from "./credential-to-issue";
import { parseForm } from "./zod-problem";
import { transaction } from "@/lib/server/db/transaction";

/**
 * Issues an agent key on a channel of the admin's tenant. The key (`agk_` + 256 random bits) is returned
 * once; only its SHA-256 and a short prefix are stored. Its tools are the requested ones (default: all of
 * the channel's) and can never exceed the channel's. Optional expiry: afterwards it gets 401.
 */
export async function issueAgentKey(
  actor: Actor,
  raw: unknown,
  now = new Date(),
): Promise<{ id: string; key: string; keyPrefix: string; tools: string[]; expiresAt: Date | null }> {
  assertCan(actor.roles, "admin:manage");
  const input = parseForm(issueAgentKeyInput, raw);
  const { key, keyPrefix, expiresAt } = await credentialToIssue(actor, input, "agk", now);
  const channel = await db().channel.findFirst({
    where: { tenantId: actor.tenantId, slug: input.channel },
    select: { id: true, slug: true, allowedTools: true },
  });
  if (!channel) throw new AppError("not_found", "No such channel.", { field: "channel" });
  const tools = input.tools ?? channel.allowedTools;
  const outside = tools.filter((t) => !channel.allowedTools.includes(t));
  if (outside.length > 0)
    throw new AppError("invalid_arguments", `tools: not allowed on this channel: ${outside.join(", ")}.`, {
      field: "tools",
      problem: "not_on_channel",
    });
  return transaction(async (tx) => {
    const row = await tx.agentKey.create({
      data: {
        tenantId: actor.tenantId,
        channelId: channel.id,
        name: input.label,
        keyPrefix,
        keyHash: hashAgentKey(key),
        allowedTools: tools,
        expiresAt,
      },
    });
    await recordAdminEvent(tx, actor, {
      action: "issue_agent_key",
      target: { kind: "agent_key", id: row.id, channel: channel.slug, prefix: keyPrefix },
      after: { label: input.label, tools, expiresAt: expiresAt?.toISOString() ?? null },
      clear: ["prefix"],
    });
    return { id: row.id, key, keyPrefix, tools, expiresAt };
  });
}
