// Staff actors for integration tests, built from the demo rows the way getActor() builds them from a
// session (use cases take an Actor; next-auth is exercised by the browser tests).
import { db } from "@/lib/server/db/client";
import { isRole, type Role } from "@/lib/domain/permissions";
import type { Actor } from "@/lib/server/auth/actor";
import { openStaffSession } from "@/lib/server/auth/open-staff-session";
import { demoTenants } from "../../scripts/lib/demo-data";

/** The n-th demo staff member of a tenant with a role (two reviewers each). */
export const staffOf = (tenant: string, role: Role, n = 0) => {
  const member = demoTenants.find((t) => t.slug === tenant)?.staff.filter((s) => s.roles.includes(role))[n];
  if (!member) throw new Error(`no demo ${role} #${n} in ${tenant}`);
  return member;
};

/**
 * An actor whose sign-in happened `authAgoSeconds` ago (default 10 s: a fresh session). With `session`, the
 * sign-in also opened a recorded session (as a real sign-in does) whose step-up window started then.
 */
export async function actorFor(email: string, opts: { authAgoSeconds?: number; session?: boolean } = {}): Promise<Actor> {
  const u = await db().staffUser.findUniqueOrThrow({ where: { email }, include: { tenant: true } });
  const authTime = Math.floor(Date.now() / 1000) - (opts.authAgoSeconds ?? 10);
  const sessionId = opts.session ? await openStaffSession({ id: u.id, tenantId: u.tenantId }, "password", new Date(authTime * 1000)) : undefined;
  return {
    userId: u.id,
    tenantId: u.tenantId,
    tenantSlug: u.tenant.slug,
    name: u.name,
    email: u.email,
    roles: u.roles.filter(isRole),
    locale: u.locale ?? u.tenant.locale,
    timeZone: u.tenant.timeZone,
    authTime,
    authMethod: "password",
    stepUpMinutes: u.tenant.stepUpMinutes,
    ...(sessionId ? { sessionId, stepUpAt: authTime, stepUpMethod: "password" } : {}),
  };
}

/** The same actor on its next request: the session's step-up window re-read as getActor() reads it. */
export async function nextRequestOf(actor: Actor): Promise<Actor> {
  const row = await db().staffSession.findFirstOrThrow({ where: { id: actor.sessionId, staffUserId: actor.userId } });
  return { ...actor, stepUpAt: Math.floor(row.stepUpAt.getTime() / 1000), stepUpMethod: row.stepUpMethod };
}
