import "server-only";
import { redirect } from "next/navigation";
import { isAppError } from "@/lib/domain/outcome";
import type { Permission } from "@/lib/domain/permissions";
import { requirePermission, type Actor } from "@/lib/server/auth/actor";

/** For pages: the actor if allowed; otherwise a redirect to sign-in or to the "not allowed" page. */
export async function pageActor(permission: Permission): Promise<Actor> {
  try {
    return await requirePermission(permission);
  } catch (error) {
    if (isAppError(error) && error.code === "unauthenticated") redirect("/sign-in");
    if (isAppError(error) && error.code === "permission_denied") redirect("/forbidden");
    throw error;
  }
}
