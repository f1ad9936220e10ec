import "server-only";
import { randomUUID } from "node:crypto";
import { AppError } from "@/lib/domain/outcome";
import { completeSetupInput } from "@/lib/schemas/admin";
import { hashPassword } from "@/lib/server/auth/password";
import { recordAuditEvent } from "@/lib/server/audit/record-event";
import { db } from "@/lib/server/db/client";
import { sqlOf } from "@/lib/server/db/sql";
import { hashSetupToken } from "./setup-token";
import { zodProblem } from "./zod-problem";
import { transaction } from "@/lib/server/db/transaction";

const invalidLink = () =>
  new AppError("expired", "This setup link is no longer valid. Ask an admin for a new one.", {
    reason: "invalid_link",
  });

/** What the setup page shows before the person sets a password (nothing when the link is not valid). */
export async function getSetupInvitation(
  token: string,
): Promise<{ name: string; email: string; tenantName: string; expiresAt: Date } | null> {
  if (!/^[A-Za-z0-9_-]{32,128}$/.test(token)) return null;
  const row = await db().staffSetupToken.findUnique({
    where: { tokenHash: hashSetupToken(token) },
    include: {
      staffUser: {
        select: { name: true, email: true, disabled: true, tenant: { select: { name: true, active: true } } },
      },
    },
  });
  if (!row || row.usedAt || row.expiresAt <= new Date() || row.staffUser.disabled || !row.staffUser.tenant.active)
    return null;
  return {
    name: row.staffUser.name,
    email: row.staffUser.email,
    tenantName: row.staffUser.tenant.name,
    expiresAt: row.expiresAt,
  };
}

/**
 * Uses a setup link: sets the password, clears a lockout and ends every older session. The link is
 * consumed by one guarded UPDATE (unused, unexpired), so two parallel uses cannot both win; the password
 * and the audit event commit in the same transaction. A disabled account's link does not work.
 */
export async function completeSetup(raw: unknown): Promise<{ email: string }> {
  const parsed = completeSetupInput.safeParse(raw);
  if (!parsed.success) {
    if (parsed.error.issues.some((i) => i.path[0] === "token")) throw invalidLink();
    throw zodProblem(parsed.error);
  }
  const { token, password } = parsed.data;
  const passwordHash = await hashPassword(password); // slow on purpose: outside the transaction
  const tokenHash = hashSetupToken(token);
  return transaction(async (tx) => {
    const row = await tx.staffSetupToken.findUnique({
      where: { tokenHash },
      include: { staffUser: { include: { tenant: { select: { active: true } } } } },
    });
    if (!row || row.staffUser.disabled || !row.staffUser.tenant.active) throw invalidLink();
    const now = new Date();
    const used = await tx.staffSetupToken.updateMany({
      where: { id: row.id, usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    if (used.count !== 1) throw invalidLink();
    await tx.staffUser.update({
      where: { id: row.staffUserId },
      data: { passwordHash, failedLoginCount: 0, lockedUntil: null, sessionVersion: { increment: 1 } },
    });
    await recordAuditEvent(sqlOf(tx), {
      tenantId: row.tenantId,
      traceId: `setup-${randomUUID()}`,
      actor: { type: "staff", id: row.staffUserId, authMethod: "setup_link" },
      action: "auth:complete_setup",
      outcome: "ok",
      data: { target: { kind: "staff", id: row.staffUserId }, linkCreatedBy: row.createdById },
      redaction: { clear: ["target", "kind", "id", "linkCreatedBy"] },
    });
    return { email: row.staffUser.email };
  });
}
