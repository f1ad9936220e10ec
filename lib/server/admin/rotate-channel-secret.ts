import "server-only";
import { assertCan } from "@/lib/domain/permissions";
import { rotateChannelSecretInput } from "@/lib/schemas/admin";
import type { Actor } from "@/lib/server/auth/actor";
import type { Tx } from "@/lib/server/db/client";
import { requireStepUp } from "@/lib/server/auth/require-step-up";
import { channelTarget, recordAdminEvent } from "./admin-audit";
import { assertMoved, assertRowId, changeTenantRow, type TenantRowWhere } from "./tenant-row";
import { generateChannelSecret } from "./create-channel";
import { parseForm } from "./zod-problem";

/** The channel with its current secret, as the rotation reads it (to guard the write and keep it in overlap). */
const readSecret = (tx: Tx, where: TenantRowWhere) =>
  tx.channel.findFirst({
    where,
    select: { id: true, slug: true, endUserTokenSecret: true, previousSecretValidUntil: true },
  });

/**
 * Rotates a channel's end-user token secret. The new secret signs from now on and is returned once; the
 * current one keeps verifying until now + overlapMinutes (0 = at once), so the channel integration can
 * switch without refusing its users' tokens. A rotation during an overlap ends the older overlap: only the
 * secret that was current just before stays valid. Guarded on the secret read, so two parallel rotations
 * cannot both win. Step-up required.
 */
export async function rotateChannelSecret(actor: Actor, channelId: string, raw: unknown, now = new Date()) {
  assertCan(actor.roles, "admin:manage");
  assertRowId(channelId, "channel");
  const input = parseForm(rotateChannelSecretInput, raw ?? {});
  await requireStepUp(actor, input.stepUpPassword);
  const secret = generateChannelSecret();
  const previousSecretValidUntil =
    input.overlapMinutes > 0 ? new Date(now.getTime() + input.overlapMinutes * 60_000) : null;
  return changeTenantRow(actor.tenantId, channelId, "channel", readSecret, async (tx, channel) => {
    const updated = await tx.channel.updateMany({
      where: { id: channel.id, tenantId: actor.tenantId, endUserTokenSecret: channel.endUserTokenSecret },
      data: {
        endUserTokenSecret: secret,
        previousEndUserTokenSecret: previousSecretValidUntil ? channel.endUserTokenSecret : null,
        previousSecretValidUntil,
      },
    });
    assertMoved(updated, "The secret was rotated meanwhile; reload and try again.", "conflict");
    await recordAdminEvent(tx, actor, {
      action: "rotate_channel_secret",
      target: channelTarget(channel),
      before: { previousSecretValidUntil: channel.previousSecretValidUntil?.toISOString() ?? null },
      after: {
        previousSecretValidUntil: previousSecretValidUntil?.toISOString() ?? null,
        overlapMinutes: input.overlapMinutes,
      },
      clear: ["overlapMinutes"],
    });
    return { id: channel.id, slug: channel.slug, secret, previousSecretValidUntil };
  });
}
