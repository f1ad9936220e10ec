import "server-only";
import { createHash } from "node:crypto";
import { db } from "@/lib/server/db/client";
import { isToolName, toolNames, type ToolName } from "@/lib/schemas/tools";

/** The authenticated agent: its key, tenant, channel and the tools it may call (key ∩ channel). */
export type AgentCaller = {
  keyId: string;
  tenantId: string;
  tenantSlug: string;
  channelId: string;
  channelSlug: string;
  channelSecret: string;
  tools: ToolName[];
  approvalExpiryMinutes: number;
  dualApprovalThresholdMinor: number | null;
};

export type KeyCheck =
  | { ok: true; caller: AgentCaller }
  | { ok: false; reason: "missing" | "malformed" | "unknown" | "revoked" | "tenant_inactive"; tenantId?: string; keyId?: string };

const BEARER = /^Bearer\s+([A-Za-z0-9._~+/=-]{8,512})$/i;

export function hashAgentKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

/** Checks `Authorization: Bearer <agent key>` against the stored SHA-256 (the key itself is never stored). */
export async function authenticateAgentKey(authorization: string | null): Promise<KeyCheck> {
  if (!authorization) return { ok: false, reason: "missing" };
  const m = authorization.trim().match(BEARER);
  if (!m) return { ok: false, reason: "malformed" };
  const row = await db().agentKey.findUnique({
    where: { keyHash: hashAgentKey(m[1]!) },
    include: { channel: true, tenant: true },
  });
  if (!row) return { ok: false, reason: "unknown" };
  if (row.revokedAt) return { ok: false, reason: "revoked", tenantId: row.tenantId, keyId: row.id };
  if (!row.tenant.active) return { ok: false, reason: "tenant_inactive", tenantId: row.tenantId, keyId: row.id };
  const channelTools = new Set(row.channel.allowedTools);
  // Catalogue order, so listings are stable.
  const tools = toolNames.filter((t) => isToolName(t) && row.allowedTools.includes(t) && channelTools.has(t));
  return {
    ok: true,
    caller: {
      keyId: row.id,
      tenantId: row.tenantId,
      tenantSlug: row.tenant.slug,
      channelId: row.channelId,
      channelSlug: row.channel.slug,
      channelSecret: row.channel.endUserTokenSecret,
      tools,
      approvalExpiryMinutes: row.tenant.approvalExpiryMinutes,
      dualApprovalThresholdMinor: row.tenant.dualApprovalThresholdMinor,
    },
  };
}
