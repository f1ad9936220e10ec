import "server-only";
import { AppError, type ErrorCode } from "@/lib/domain/outcome";
import type { Tx } from "@/lib/server/db/client";
import { recordAuditEvent } from "@/lib/server/audit/record-event";
import type { Actor } from "@/lib/server/auth/actor";

/**
 * The result of a decision taken inside a transaction. A refusal is *returned*, not thrown, so the
 * transaction still commits what the refusal itself changed (a proposal found expired or invalidated)
 * together with the audit event of the denied attempt; the caller throws after the commit.
 */
export type Decision<T> = { value: T } | { error: { code: ErrorCode; message: string; details?: Record<string, unknown> } };

export async function refuse(
  tx: Tx,
  actor: Actor,
  traceId: string,
  proposal: { id: string; hash: string } | null,
  code: ErrorCode,
  message: string,
  details?: Record<string, unknown>,
  action = "proposal:approve",
): Promise<{ error: { code: ErrorCode; message: string; details?: Record<string, unknown> } }> {
  await recordAuditEvent(tx, {
    tenantId: actor.tenantId,
    traceId,
    actor: { type: "staff", id: actor.userId, authMethod: actor.authMethod },
    action,
    outcome: code,
    proposal,
    data: details ?? {},
    redaction: { clear: ["reason", "status", "expiresAt", "usedMinor", "limitMinor"] },
  });
  return { error: { code, message, details } };
}

export function decisionError(d: { error: { code: ErrorCode; message: string; details?: Record<string, unknown> } }): AppError {
  return new AppError(d.error.code, d.error.message, d.error.details);
}
