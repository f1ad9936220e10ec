import "server-only";
import { randomUUID } from "node:crypto";
import { log } from "@/lib/server/log";
import { recordAuditEvent } from "@/lib/server/audit/record-event";
import type { CredentialCheck } from "@/lib/server/auth/verify-credentials";
import { sqlPool } from "@/lib/server/db/pg";

/**
 * Writes the audit event of a sign-in attempt. Fails closed: when the event cannot be written the
 * caller refuses the sign-in. The email is stored only as its keyed fingerprint (the audit writer
 * redacts it), so an auditor can still find every attempt for one address.
 */
export async function recordSignIn(input: {
  email: string;
  method: "password" | "oidc";
  result: CredentialCheck;
}): Promise<void> {
  const { result } = input;
  const tenantId = result.ok ? result.user.tenantId : (result.tenantId ?? null);
  const userId = result.ok ? result.user.id : (result.userId ?? null);
  await recordAuditEvent(sqlPool(), {
    tenantId,
    traceId: randomUUID().replace(/-/g, ""),
    actor: { type: "staff", id: userId, authMethod: input.method },
    action: "auth:sign_in",
    outcome: result.ok ? "ok" : result.reason === "locked" ? "limit_exceeded" : "unauthenticated",
    data: { email: input.email, reason: result.ok ? null : result.reason },
    redaction: { clear: ["reason"] },
  });
  if (result.ok) log.info({ event: "sign_in", method: input.method, userId, tenantId }, "staff signed in");
  else
    log.warn(
      { event: "sign_in_failed", method: input.method, reason: result.reason, tenantId },
      "staff sign-in refused",
    );
}
