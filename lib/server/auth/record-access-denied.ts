import "server-only";
import { randomUUID } from "node:crypto";
import { sqlOf, sql } from "@/lib/server/db/sql";
import { log } from "@/lib/server/log";
import { recordStaffEvent } from "@/lib/server/audit/record-event";
import type { Actor } from "@/lib/server/auth/actor";
import { transaction } from "@/lib/server/db/transaction";

export const DENIAL_WINDOW_SECONDS = 60;

/**
 * Records a role refusal (every denied access is audited). Counted per person, target and
 * minute in one atomic upsert: the first refusal of a window writes an `access:denied` audit event, later
 * ones only bump the window's count (a loop of refused requests cannot flood the trail; the count is
 * in AccessDenialWindow). Never throws: the caller refuses anyway.
 */
export async function recordAccessDenied(
  actor: Actor,
  input: { permission?: string; path?: string },
  now = new Date(),
): Promise<void> {
  const target = `${input.permission ? `permission:${input.permission}` : "role"}${input.path ? ` ${input.path.slice(0, 200)}` : ""}`;
  const windowStart = new Date(
    Math.floor(now.getTime() / (DENIAL_WINDOW_SECONDS * 1000)) * DENIAL_WINDOW_SECONDS * 1000,
  );
  try {
    await transaction(async (tx) => {
      const [row] = (
        await sql<{ count: number }>`
        INSERT INTO "AccessDenialWindow" ("tenantId", "staffUserId", "target", "windowStart", "count", "lastAt")
        VALUES (${actor.tenantId}::uuid, ${actor.userId}::uuid, ${target}, ${windowStart}, 1, ${now})
        ON CONFLICT ("tenantId", "staffUserId", "target", "windowStart")
        DO UPDATE SET "count" = "AccessDenialWindow"."count" + 1, "lastAt" = EXCLUDED."lastAt"
        RETURNING "count"`.execute(sqlOf(tx))
      ).rows;
      if (row?.count !== 1) return;
      await tx.accessDenialWindow.deleteMany({
        where: {
          tenantId: actor.tenantId,
          staffUserId: actor.userId,
          windowStart: { lt: new Date(now.getTime() - 86_400_000) },
        },
      });
      await recordStaffEvent(sqlOf(tx), actor, {
        traceId: `denied-${randomUUID()}`,
        action: "access:denied",
        outcome: "permission_denied",
        data: {
          permission: input.permission ?? null,
          path: input.path ?? null,
          roles: actor.roles,
          windowStart: windowStart.toISOString(),
          windowSeconds: DENIAL_WINDOW_SECONDS,
        },
        redaction: { clear: ["permission", "path", "roles", "windowStart", "windowSeconds"] },
      });
    });
  } catch (error) {
    log.error(
      { err: error instanceof Error ? error.message : String(error), userId: actor.userId },
      "recording a denied access failed",
    );
  }
}
