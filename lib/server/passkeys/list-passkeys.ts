import "server-only";
import { db } from "@/lib/server/db/client";
import type { Actor } from "@/lib/server/auth/actor";

export type PasskeySummary = {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  transports: string[];
};

/** The signed-in staff member's own passkeys (never anybody else's). */
export async function listPasskeys(actor: Actor): Promise<PasskeySummary[]> {
  const rows = await db().passkeyCredential.findMany({
    where: { staffUserId: actor.userId, tenantId: actor.tenantId, removedAt: null },
    orderBy: { createdAt: "asc" },
    select: { id: true, name: true, createdAt: true, lastUsedAt: true, transports: true },
  });
  return rows.map((r) => ({
    ...r,
    createdAt: r.createdAt.toISOString(),
    lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
  }));
}

/** Whether the staff member has at least one passkey (the approve dialog then offers it). */
export async function hasPasskeys(actor: Actor): Promise<boolean> {
  return (
    (await db().passkeyCredential.count({
      where: { staffUserId: actor.userId, tenantId: actor.tenantId, removedAt: null },
    })) > 0
  );
}
