import "server-only";
import { randomBytes } from "node:crypto";
import { assertCan } from "@/lib/domain/permissions";
import { takenError } from "@/lib/domain/validation";
import { createChannelInput } from "@/lib/schemas/admin";
import type { Actor } from "@/lib/server/auth/actor";
import { requireStepUp } from "@/lib/server/auth/require-step-up";
import { transactionUnlessTaken } from "@/lib/server/db/unique-violation";
import { channelTarget, recordAdminEvent } from "./admin-audit";
import { parseForm } from "./zod-problem";

/** A fresh HS256 secret for end-user tokens (256 random bits). */
export const generateChannelSecret = () => randomBytes(32).toString("base64url");

/**
 * Creates an agent channel of the admin's tenant. The end-user token secret is generated here and
 * returned once (to be handed to the channel integration); it is never shown again nor audited.
 */
export async function createChannel(actor: Actor, raw: unknown): Promise<{ id: string; slug: string; secret: string }> {
  assertCan(actor.roles, "admin:manage");
  const input = parseForm(createChannelInput, raw);
  await requireStepUp(actor, input.stepUpPassword);
  const secret = generateChannelSecret();
  return transactionUnlessTaken(
    async (tx) => {
      const channel = await tx.channel.create({
        data: {
          tenantId: actor.tenantId,
          slug: input.slug,
          name: input.name,
          allowedTools: input.allowedTools,
          endUserTokenSecret: secret,
        },
      });
      await recordAdminEvent(tx, actor, {
        action: "create_channel",
        target: channelTarget(channel),
        after: { name: input.name, allowedTools: input.allowedTools },
        clear: ["name"],
      });
      return { id: channel.id, slug: channel.slug, secret };
    },
    () => takenError("slug", "A channel with this name already exists."),
  );
}
