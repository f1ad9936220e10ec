import "server-only";
import { randomUUID } from "node:crypto";
import { AppError } from "@/lib/domain/outcome";
import { removePasskeyInput, renamePasskeyInput } from "@/lib/schemas/admin";
import type { Actor } from "@/lib/server/auth/actor";
import { requireStepUp } from "@/lib/server/auth/require-step-up";
import { recordStaffEvent } from "@/lib/server/audit/record-event";
import { db } from "@/lib/server/db/client";
import { sqlOf } from "@/lib/server/db/sql";
import { parseForm } from "@/lib/server/admin/zod-problem";
import { transaction } from "@/lib/server/db/transaction";

const CREDENTIAL_ID = /^[A-Za-z0-9_-]{1,1024}$/;
const notFound = () => new AppError("not_found", "No such passkey.");
// Only the owner's own, not yet removed passkeys: another person's (or tenant's) is simply not found.
const own = (actor: Actor, id: string) => ({
  id,
  staffUserId: actor.userId,
  tenantId: actor.tenantId,
  removedAt: null,
});

const audit =
  (actor: Actor, action: string, data: Record<string, unknown>) => (tx: Parameters<typeof recordStaffEvent>[0]) =>
    recordStaffEvent(tx, actor, {
      traceId: `account-${randomUUID()}`,
      action,
      outcome: "ok",
      data,
      redaction: { clear: ["credential", "before", "after", "name"] },
    });

/** Renames one of the actor's own passkeys. Audited with before → after. */
export async function renamePasskey(actor: Actor, id: string, raw: unknown): Promise<{ id: string; name: string }> {
  if (!CREDENTIAL_ID.test(id)) throw notFound();
  const input = parseForm(renamePasskeyInput, raw);
  return transaction(async (tx) => {
    const row = await tx.passkeyCredential.findFirst({ where: own(actor, id), select: { name: true } });
    if (!row) throw notFound();
    const updated = await tx.passkeyCredential.updateMany({ where: own(actor, id), data: { name: input.name } });
    if (updated.count !== 1) throw notFound();
    await audit(actor, "account:rename_passkey", {
      credential: id.slice(0, 16),
      before: { name: row.name },
      after: { name: input.name },
    })(sqlOf(tx));
    return { id, name: input.name };
  });
}

/**
 * Removes one of the actor's own passkeys (step-up required: a stolen session must not be able to strip a
 * person's passkeys). The row is kept, marked removed, so earlier passkey approvals stay verifiable with
 * its public key; it is no longer offered, listed, counted or accepted.
 */
export async function removePasskey(actor: Actor, id: string, raw: unknown = {}): Promise<{ id: string }> {
  if (!CREDENTIAL_ID.test(id)) throw notFound();
  const input = parseForm(removePasskeyInput, raw ?? {});
  const exists = await db().passkeyCredential.count({ where: own(actor, id) });
  if (exists !== 1) throw notFound();
  await requireStepUp(actor, input.stepUpPassword);
  return transaction(async (tx) => {
    const updated = await tx.passkeyCredential.updateMany({ where: own(actor, id), data: { removedAt: new Date() } });
    if (updated.count !== 1) throw notFound();
    await audit(actor, "account:remove_passkey", {
      credential: id.slice(0, 16),
      before: { removed: false },
      after: { removed: true },
    })(sqlOf(tx));
    return { id };
  });
}
