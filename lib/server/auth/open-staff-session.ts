import "server-only";
import { randomUUID } from "node:crypto";
import { SESSION_ABSOLUTE_SECONDS } from "@/lib/server/auth/session-lifetime";
import { transaction } from "@/lib/server/db/transaction";

/**
 * A sign-in opens a session row (its id becomes the cookie's `sid` claim) whose step-up window starts now.
 * The same person's rows past the absolute session lifetime can no longer be used and are removed here,
 * so the table holds at most the sessions of the last 12 hours per person.
 */
export async function openStaffSession(
  user: { id: string; tenantId: string },
  method: string,
  now = new Date(),
): Promise<string> {
  const id = randomUUID();
  await transaction(async (tx) => {
    await tx.staffSession.deleteMany({
      where: { staffUserId: user.id, createdAt: { lt: new Date(now.getTime() - SESSION_ABSOLUTE_SECONDS * 1000) } },
    });
    await tx.staffSession.create({
      data: { id, tenantId: user.tenantId, staffUserId: user.id, createdAt: now, stepUpAt: now, stepUpMethod: method },
    });
  });
  return id;
}
