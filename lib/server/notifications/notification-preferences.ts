import "server-only";
import { AppError } from "@/lib/domain/outcome";
import { can } from "@/lib/domain/permissions";
import { parseInput } from "@/lib/domain/validation";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";
import { notifyExpiringWithinMinutes } from "@/lib/server/env";
import { updateNotificationPreferencesInput, type NotificationPreferencesDto } from "@/lib/schemas/notifications";
import { emailEnabled } from "./mailer";

/**
 * Notification preferences belong to their staff user alone: there is no user id in any input — the
 * row is always the actor's own (`staffUserId = actor.userId`), so nobody can read or change another
 * person's, in this tenant or another. Only people with a role that receives notifications (reviewers,
 * ops) have preferences; others get permission_denied.
 */
function assertReceivesNotifications(actor: Actor) {
  const applies = {
    newProposal: can(actor.roles, "proposal:decide"),
    inDoubt: can(actor.roles, "executions:reconcile"),
  };
  if (!applies.newProposal && !applies.inDoubt) {
    throw new AppError("permission_denied", "Your roles receive no notifications.", {
      reason: "role",
      permission: "proposal:decide",
    });
  }
  return { newProposal: applies.newProposal, expiring: applies.newProposal, inDoubt: applies.inDoubt };
}

export async function getNotificationPreferences(actor: Actor): Promise<NotificationPreferencesDto> {
  const applies = assertReceivesNotifications(actor);
  const row = await db().notificationPreference.findFirst({
    // Tenant in the where as well: a row is reachable only through a staff user of the actor's tenant.
    where: { staffUserId: actor.userId, staffUser: { tenantId: actor.tenantId } },
    select: { emailNewProposal: true, emailExpiring: true, emailInDoubt: true },
  });
  return {
    emailNewProposal: row?.emailNewProposal ?? true,
    emailExpiring: row?.emailExpiring ?? true,
    emailInDoubt: row?.emailInDoubt ?? true,
    applies,
    emailEnabled: emailEnabled(),
    expiringWithinMinutes: notifyExpiringWithinMinutes(),
  };
}

/** Changes the given switches of the actor's own preferences (the others keep their value or default). */
export async function updateNotificationPreferences(actor: Actor, raw: unknown): Promise<NotificationPreferencesDto> {
  assertReceivesNotifications(actor);
  const input = parseInput(
    updateNotificationPreferencesInput,
    raw,
    "Send the preferences as booleans: emailNewProposal, emailExpiring, emailInDoubt.",
  );
  const staff = await db().staffUser.findFirst({
    where: { id: actor.userId, tenantId: actor.tenantId, disabled: false },
    select: { id: true },
  });
  if (!staff) throw new AppError("not_found", "Staff user not found.");
  await db().notificationPreference.upsert({
    where: { staffUserId: staff.id },
    create: { staffUserId: staff.id, ...input },
    update: input,
  });
  return getNotificationPreferences(actor);
}
