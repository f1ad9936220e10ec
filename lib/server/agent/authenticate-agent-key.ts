import "server-only";
import { createHash } from "node:crypto";
import { sqlPool } from "@/lib/server/db/pg";
import { sql, nowUtc } from "@/lib/server/db/sql";
import { isToolName, toolNames, type ToolName } from "@/lib/schemas/tools";

/** The authenticated agent: its key, tenant, channel and the tools it may call (key ∩ channel). */
export type AgentCaller = {
  keyId: string;
  tenantId: string;
  tenantSlug: string;
  channelId: string;
  channelSlug: string;
  channelSecret: string;
  /** After a secret rotation: the previous secret, which still verifies until `previousSecretValidUntil`. */
  previousChannelSecret: string | null;
  previousSecretValidUntil: Date | null;
  tools: ToolName[];
  approvalExpiryMinutes: number;
  dualApprovalThresholdMinor: number | null;
  /** Tenant policy: end-user tokens older than this (from `iat`) are refused. */
  endUserTokenMaxAgeSeconds: number;
};

export type KeyCheck =
  | { ok: true; caller: AgentCaller }
  | {
      ok: false;
      reason: "missing" | "malformed" | "unknown" | "revoked" | "expired" | "tenant_inactive";
      tenantId?: string;
      keyId?: string;
    };

type KeyRow = {
  id: string;
  tenantId: string;
  channelId: string;
  allowedTools: string[];
  revokedAt: Date | null;
  expired: boolean;
  channelSlug: string;
  endUserTokenSecret: string;
  previousEndUserTokenSecret: string | null;
  previousSecretValidUntil: Date | null;
  channelTools: string[];
  tenantSlug: string;
  active: boolean;
  approvalExpiryMinutes: number;
  dualApprovalThresholdMinor: number | null;
  endUserTokenMaxAgeSeconds: number;
};

const BEARER = /^Bearer\s+([A-Za-z0-9._~+/=-]{8,512})$/i;

export function hashAgentKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

/** Checks `Authorization: Bearer <agent key>` against the stored SHA-256 (the key itself is never stored). */
export async function authenticateAgentKey(authorization: string | null): Promise<KeyCheck> {
  if (!authorization) return { ok: false, reason: "missing" };
  const m = authorization.trim().match(BEARER);
  if (!m) return { ok: false, reason: "malformed" };
  // One round trip (key, channel and tenant joined): this runs on every agent call. The same statement
  // records when the key was last used (for the admins' key list), at most once a minute per key so that
  // busy keys do not queue on their own row.
  const keyHash = hashAgentKey(m[1]!);
  const [row] = (
    await sql<KeyRow>`
    WITH touched AS (
      UPDATE "AgentKey" SET "lastUsedAt" = ${nowUtc}
       WHERE "keyHash" = ${keyHash} AND "revokedAt" IS NULL
         AND ("lastUsedAt" IS NULL OR "lastUsedAt" < ${nowUtc} - interval '1 minute')
    )
    SELECT k."id", k."tenantId", k."channelId", k."allowedTools", k."revokedAt",
           (k."expiresAt" IS NOT NULL AND k."expiresAt" <= ${nowUtc}) AS "expired",
           c."slug" AS "channelSlug", c."endUserTokenSecret", c."allowedTools" AS "channelTools",
           c."previousEndUserTokenSecret", c."previousSecretValidUntil",
           t."slug" AS "tenantSlug", t."active", t."approvalExpiryMinutes", t."dualApprovalThresholdMinor", t."endUserTokenMaxAgeSeconds"
      FROM "AgentKey" k
      JOIN "Channel" c ON c."id" = k."channelId" AND c."tenantId" = k."tenantId"
      JOIN "Tenant" t ON t."id" = k."tenantId"
     WHERE k."keyHash" = ${keyHash}`.execute(sqlPool())
  ).rows;
  if (!row) return { ok: false, reason: "unknown" };
  if (row.revokedAt) return { ok: false, reason: "revoked", tenantId: row.tenantId, keyId: row.id };
  if (row.expired) return { ok: false, reason: "expired", tenantId: row.tenantId, keyId: row.id };
  if (!row.active) return { ok: false, reason: "tenant_inactive", tenantId: row.tenantId, keyId: row.id };
  const channelTools = new Set(row.channelTools);
  // Catalogue order, so listings are stable.
  const tools = toolNames.filter((t) => isToolName(t) && row.allowedTools.includes(t) && channelTools.has(t));
  return {
    ok: true,
    caller: {
      keyId: row.id,
      tenantId: row.tenantId,
      tenantSlug: row.tenantSlug,
      channelId: row.channelId,
      channelSlug: row.channelSlug,
      channelSecret: row.endUserTokenSecret,
      previousChannelSecret: row.previousEndUserTokenSecret,
      previousSecretValidUntil: row.previousSecretValidUntil,
      tools,
      approvalExpiryMinutes: row.approvalExpiryMinutes,
      dualApprovalThresholdMinor: row.dualApprovalThresholdMinor,
      endUserTokenMaxAgeSeconds: row.endUserTokenMaxAgeSeconds,
    },
  };
}
