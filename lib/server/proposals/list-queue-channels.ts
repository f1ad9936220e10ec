import "server-only";
import { assertCan } from "@/lib/domain/permissions";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";

/** The channels of the reviewer's tenant (slug and display name), for the queue's channel filter. */
export async function listQueueChannels(actor: Actor): Promise<{ slug: string; name: string }[]> {
  assertCan(actor.roles, "queue:read");
  const channels = await db().channel.findMany({
    where: { tenantId: actor.tenantId },
    select: { slug: true, name: true },
    orderBy: { slug: "asc" },
  });
  return channels;
}
