import "server-only";
import { cache } from "react";
import { getServerSession } from "next-auth";
import { authOptions } from "@/lib/server/auth/options";
import { db } from "@/lib/server/db/client";
import { AppError } from "@/lib/domain/outcome";
import { can, isRole, type Permission, type Role } from "@/lib/domain/permissions";
import { recordAccessDenied } from "@/lib/server/auth/record-access-denied";
import { isSessionWithinAbsoluteLifetime } from "@/lib/server/auth/session-lifetime";

export type Actor = {
  userId: string;
  tenantId: string;
  tenantSlug: string;
  name: string;
  email: string;
  roles: Role[];
  locale: string;
  timeZone: string;
  /** Unix seconds of the last interactive authentication (the step-up clock). */
  authTime: number;
  /** How that authentication happened: "password" | "oidc". */
  authMethod: string;
  stepUpMinutes: number;
  /** The session's id (the cookie's `sid` claim); absent for sessions issued before sessions were recorded. */
  sessionId?: string;
  /** Unix seconds the session's step-up window started (sign-in or last step-up); else `authTime` counts. */
  stepUpAt?: number;
  /** How that window was opened: "password" | "oidc" | "passkey". */
  stepUpMethod?: string;
};

/**
 * The signed-in staff member, re-read from the database on every request: a disabled user, a
 * deactivated tenant, or a session issued before the last sign-out / role change is no session.
 * Roles come from the row, not from the cookie, so a role change takes effect at once. A session older
 * than the absolute lifetime (from the original sign-in, whatever the activity) is no session either.
 */
export const getActor = cache(async (): Promise<Actor | null> => {
  const session = await getServerSession(authOptions()).catch(() => null);
  const id = session?.user?.id;
  if (!id) return null;
  const sid = session.user.sid;
  const user = await db().staffUser.findUnique({
    where: { id },
    include: { tenant: true, sessions: { where: { id: sid ?? undefined }, take: sid ? 1 : 0 } },
  });
  if (!user || user.disabled || !user.tenant.active) return null;
  if (session.user.sv !== user.sessionVersion) return null;
  if (!isSessionWithinAbsoluteLifetime(session.user.authTime)) return null;
  const stepUp = user.sessions[0];
  return {
    userId: user.id,
    tenantId: user.tenantId,
    tenantSlug: user.tenant.slug,
    name: user.name,
    email: user.email,
    roles: user.roles.filter(isRole),
    locale: user.locale ?? user.tenant.locale,
    timeZone: user.tenant.timeZone,
    authTime: session.user.authTime,
    authMethod: session.user.amr,
    stepUpMinutes: user.tenant.stepUpMinutes,
    ...(sid ? { sessionId: sid } : {}),
    ...(stepUp ? { stepUpAt: Math.floor(stepUp.stepUpAt.getTime() / 1000), stepUpMethod: stepUp.stepUpMethod } : {}),
  };
});

export async function requireActor(): Promise<Actor> {
  const actor = await getActor();
  if (!actor) throw new AppError("unauthenticated", "Sign in to continue.");
  return actor;
}

/** The one authorization check: every page, server action and route handler goes through here. */
export async function requirePermission(permission: Permission, path?: string): Promise<Actor> {
  const actor = await requireActor();
  if (!can(actor.roles, permission)) {
    await recordAccessDenied(actor, { permission, path });
    throw new AppError("permission_denied", "Your role does not allow this.", {
      reason: "role",
      permission,
      recorded: true,
    });
  }
  return actor;
}
