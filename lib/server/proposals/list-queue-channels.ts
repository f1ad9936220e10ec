import "server-only";
import { assertCan } from "@/lib/domain/permissions";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";

/** The channel slugs of the reviewer's tenant, for the queue's channel filter. */
export async function listQueueChannels(actor: Actor): Promise<string[]> {
  assertCan(actor.roles, "queue:read");
  const channels = await db().channel.findMany({ where: { tenantId: actor.tenantId }, select: { slug: true }, orderBy: { slug: "asc" } });
  return channels.map((c) => c.slug);
}
