import "server-only";
import { randomUUID } from "node:crypto";
import { sqlOf, sql } from "@/lib/server/db/sql";
import { log } from "@/lib/server/log";
import { recordStaffEvent } from "@/lib/server/audit/record-event";
import type { Actor } from "@/lib/server/auth/actor";
import { transaction } from "@/lib/server/db/transaction";

export const DENIAL_WINDOW_SECONDS = 60;

/** Refusals of one person, target and window that wait for their write, in this process. */
type Batch = { count: number; lastAt: Date; written: Promise<void> };
/** Per key: the batch still taking refusals (its write has not started). */
const collecting = new Map<string, Batch>();
/** Per key: the last write started or queued (the next batch's write follows it). */
const writing = new Map<string, Promise<void>>();

/**
 * Records a role refusal (every denied access is audited). Counted per person, target and minute: the first
 * refusal of a window writes an `access:denied` audit event, later ones only add to the window's count (a loop of
 * refused requests cannot flood the trail; the count is in AccessDenialWindow). Never throws: the caller refuses
 * anyway.
 *
 * One write at a time per person, target and window in a process: refusals that arrive while one is written wait
 * in memory and are added by the next write, together. A flood of one person's refused requests therefore holds
 * one pooled connection, not the pool (each write waits on the window's row lock while an earlier one commits
 * its audit event); resolves once this refusal's count is written.
 */
export function recordAccessDenied(
  actor: Actor,
  input: { permission?: string; path?: string },
  now = new Date(),
): Promise<void> {
  const target = `${input.permission ? `permission:${input.permission}` : "role"}${input.path ? ` ${input.path.slice(0, 200)}` : ""}`;
  const windowStart = new Date(
    Math.floor(now.getTime() / (DENIAL_WINDOW_SECONDS * 1000)) * DENIAL_WINDOW_SECONDS * 1000,
  );
  const key = [actor.tenantId, actor.userId, target, windowStart.toISOString()].join("\n");
  const open = collecting.get(key);
  if (open) {
    open.count += 1;
    if (now > open.lastAt) open.lastAt = now;
    return open.written;
  }
  const batch: Batch = { count: 1, lastAt: now, written: Promise.resolve() };
  collecting.set(key, batch);
  batch.written = (writing.get(key) ?? Promise.resolve()).then(() => {
    collecting.delete(key); // refusals from now on go to the next batch
    return writeDenials(actor, input, target, windowStart, batch.count, batch.lastAt);
  });
  writing.set(key, batch.written);
  void batch.written.then(() => {
    if (writing.get(key) === batch.written) writing.delete(key);
  });
  return batch.written;
}

/** Adds `count` refusals to the window in one atomic upsert; the write that creates the window audits it. */
async function writeDenials(
  actor: Actor,
  input: { permission?: string; path?: string },
  target: string,
  windowStart: Date,
  count: number,
  lastAt: Date,
): Promise<void> {
  try {
    await transaction(async (tx) => {
      const [row] = (
        await sql<{ count: number }>`
        INSERT INTO "AccessDenialWindow" ("tenantId", "staffUserId", "target", "windowStart", "count", "lastAt")
        VALUES (${actor.tenantId}::uuid, ${actor.userId}::uuid, ${target}, ${windowStart}, ${count}, ${lastAt})
        ON CONFLICT ("tenantId", "staffUserId", "target", "windowStart")
        DO UPDATE SET "count" = "AccessDenialWindow"."count" + EXCLUDED."count",
                      "lastAt" = GREATEST("AccessDenialWindow"."lastAt", EXCLUDED."lastAt")
        RETURNING "count"`.execute(sqlOf(tx))
      ).rows;
      // Only the write that created the window gets back exactly what it added (any earlier write added ≥ 1).
      if (row?.count !== count) return;
      await tx.accessDenialWindow.deleteMany({
        where: {
          tenantId: actor.tenantId,
          staffUserId: actor.userId,
          windowStart: { lt: new Date(lastAt.getTime() - 86_400_000) },
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
      { err: error instanceof Error ? error.message : String(error), userId: actor.userId, refusals: count },
      "recording a denied access failed",
    );
  }
}
