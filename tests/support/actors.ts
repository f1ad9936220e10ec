// Staff actors for integration tests, built from the demo rows the way getActor() builds them from a
// session (use cases take an Actor; next-auth is exercised by the browser tests).
import { db } from "@/lib/server/db/client";
import type { Role } from "@/lib/domain/permissions";
import type { Actor } from "@/lib/server/auth/actor";
import { openStaffSession } from "@/lib/server/auth/open-staff-session";
import { demoTenants } from "../../scripts/lib/demo-data";
import { staffActor } from "../../scripts/lib/fixtures";

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
export async function actorFor(
  email: string,
  opts: { authAgoSeconds?: number; session?: boolean } = {},
): Promise<Actor> {
  const actor = await staffActor(db(), email, opts);
  if (!opts.session) return actor;
  const sessionId = await openStaffSession(
    { id: actor.userId, tenantId: actor.tenantId },
    "password",
    new Date(actor.authTime * 1000),
  );
  return { ...actor, sessionId, stepUpAt: actor.authTime, stepUpMethod: "password" };
}

/** The same actor on its next request: the session's step-up window re-read as getActor() reads it. */
export async function nextRequestOf(actor: Actor): Promise<Actor> {
  const row = await db().staffSession.findFirstOrThrow({ where: { id: actor.sessionId, staffUserId: actor.userId } });
  return { ...actor, stepUpAt: Math.floor(row.stepUpAt.getTime() / 1000), stepUpMethod: row.stepUpMethod };
}
