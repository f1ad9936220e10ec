import "server-only";
import { AppError } from "@/lib/domain/outcome";
import { assertCan } from "@/lib/domain/permissions";
import { rotateChannelSecretInput } from "@/lib/schemas/admin";
import type { Actor } from "@/lib/server/auth/actor";
import { requireStepUp } from "@/lib/server/auth/require-step-up";
import { db } from "@/lib/server/db/client";
import { recordAdminEvent } from "./admin-audit";
import { generateChannelSecret } from "./create-channel";
import { parseForm } from "./zod-problem";
import { isUuid } from "@/lib/domain/validation";

/**
 * Rotates a channel's end-user token secret. The new secret signs from now on and is returned once; the
 * current one keeps verifying until now + overlapMinutes (0 = at once), so the channel integration can
 * switch without refusing its users' tokens. A rotation during an overlap ends the older overlap: only the
 * secret that was current just before stays valid. Guarded on the secret read, so two parallel rotations
 * cannot both win. Step-up required.
 */
export async function rotateChannelSecret(actor: Actor, channelId: string, raw: unknown, now = new Date()) {
  assertCan(actor.roles, "admin:manage");
  if (!isUuid(channelId)) throw new AppError("not_found", "No such channel.");
  const input = parseForm(rotateChannelSecretInput, raw ?? {});
  await requireStepUp(actor, input.stepUpPassword);
  const secret = generateChannelSecret();
  const previousSecretValidUntil =
    input.overlapMinutes > 0 ? new Date(now.getTime() + input.overlapMinutes * 60_000) : null;
  return db().$transaction(async (tx) => {
    const channel = await tx.channel.findFirst({
      where: { id: channelId, tenantId: actor.tenantId },
      select: { id: true, slug: true, endUserTokenSecret: true, previousSecretValidUntil: true },
    });
    if (!channel) throw new AppError("not_found", "No such channel.");
    const updated = await tx.channel.updateMany({
      where: { id: channel.id, tenantId: actor.tenantId, endUserTokenSecret: channel.endUserTokenSecret },
      data: {
        endUserTokenSecret: secret,
        previousEndUserTokenSecret: previousSecretValidUntil ? channel.endUserTokenSecret : null,
        previousSecretValidUntil,
      },
    });
    if (updated.count !== 1)
      throw new AppError("permission_denied", "The secret was rotated meanwhile; reload and try again.", {
        reason: "conflict",
      });
    await recordAdminEvent(tx, actor, {
      action: "rotate_channel_secret",
      target: { kind: "channel", id: channel.id, slug: channel.slug },
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
