import "server-only";
import { recordAuditEvent } from "@/lib/server/audit/record-event";
import { db } from "@/lib/server/db/client";
import { sql, nowUtc } from "@/lib/server/db/sql";
import type { KeyCheck } from "./authenticate-agent-key";
import { sqlPool } from "@/lib/server/db/pg";

// Floods of bad agent keys. Every refusal bumps two counters in PostgreSQL (shared by every
// instance): its client address's row and the window's global row ("*"), both for the current one-minute
// window, in ONE statement. Only the first refusal of a (window, source) writes an audit event — a counted
// window, not one event per request — and only for the first MAX_AUDITED_SOURCES sources of a window, so
// rotating (spoofed) addresses cannot turn the flood back into one event per request. Past its limit a
// source gets 429 with Retry-After; past the global limit everyone with a bad key does.

export const REFUSAL_LIMITS = {
  /** Refused requests one client address may make per minute before it gets 429 instead of 401. */
  perSource: 30,
  /** Refused requests per minute from all addresses together. */
  global: 600,
  /** Distinct sources per minute that get their own audit event. */
  maxAuditedSources: 50,
} as const;

const SOURCE = /^[0-9A-Fa-f:.]{2,45}$/;

/**
 * The client address the throttle counts by: the nearest hop of X-Forwarded-For (what the proxy in front of
 * us saw; Next.js sets the header from the socket when nothing is in front), else X-Real-IP. A value that is
 * not an IP address counts as "invalid" (one shared bucket), never as free text.
 */
export function clientSource(headers: Headers): string {
  const xff = headers.get("x-forwarded-for");
  const candidate = (xff ? xff.split(",").at(-1) : headers.get("x-real-ip"))?.trim() ?? "";
  if (!candidate) return "unknown";
  return SOURCE.test(candidate) ? candidate.toLowerCase() : "invalid";
}

export type RefusalDecision = { throttled: false } | { throttled: true; retryAfterSeconds: number };

type Row = { source: string; count: number; inserted: boolean; retryAfter: number };

/** Counts one refused credential; writes the window's audit event for this source when it is the first. */
export async function recordKeyRefusal(
  check: Extract<KeyCheck, { ok: false }>,
  ctx: { source: string; traceId: string; action: string; model: string | null; promptVersion: string | null },
): Promise<RefusalDecision> {
  const rows = (
    await sql<Row>`
    WITH win AS (SELECT date_trunc('minute', now() AT TIME ZONE 'UTC') AS start)
    INSERT INTO "AgentKeyRefusalWindow" ("windowStart", "source", "count", "reasons")
    SELECT win.start, s.source, 1, ARRAY[${check.reason}]::text[] FROM win, (VALUES (${ctx.source}), ('*')) AS s(source)
    ON CONFLICT ("windowStart", "source") DO UPDATE SET
      "count" = "AgentKeyRefusalWindow"."count" + 1,
      "reasons" = CASE WHEN ${check.reason} = ANY("AgentKeyRefusalWindow"."reasons") THEN "AgentKeyRefusalWindow"."reasons"
                       ELSE "AgentKeyRefusalWindow"."reasons" || ${check.reason}::text END
    RETURNING "source", "count", (xmax = 0) AS "inserted",
      greatest(1, 60 - floor(extract(epoch FROM ${nowUtc} - "windowStart")))::int AS "retryAfter"`.execute(sqlPool())
  ).rows;
  const mine = rows.find((r) => r.source === ctx.source);
  const all = rows.find((r) => r.source === "*");
  if (!mine || !all) return { throttled: false };
  if (mine.count > REFUSAL_LIMITS.perSource || all.count > REFUSAL_LIMITS.global)
    return { throttled: true, retryAfterSeconds: mine.retryAfter };

  if (mine.inserted) {
    // How many sources already have their event this window: one cheap count on a tiny table.
    const counted = (
      await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM "AgentKeyRefusalWindow"
       WHERE "windowStart" = date_trunc('minute', now() AT TIME ZONE 'UTC') AND "source" <> '*'`.execute(sqlPool())
    ).rows;
    if ((counted[0]?.n ?? 0) <= REFUSAL_LIMITS.maxAuditedSources) {
      await recordAuditEvent(sqlPool(), {
        tenantId: check.tenantId ?? null,
        traceId: ctx.traceId,
        actor: { type: "agent", id: check.keyId ?? null, authMethod: "agent_key" },
        action: "agent:key_refused",
        outcome: "unauthenticated",
        model: ctx.model,
        promptVersion: ctx.promptVersion,
        data: {
          reason: check.reason,
          route: ctx.action,
          source: ctx.source,
          window: "1m",
          note: "first refusal from this source in this minute; further ones are counted in AgentKeyRefusalWindow",
        },
        redaction: { clear: ["reason", "route", "source", "window", "note"] },
      });
    }
  }
  return { throttled: false };
}

/** Deletes refusal windows older than a day (job purge_gateway_counters). */
export async function purgeKeyRefusalWindows(now: Date = new Date()): Promise<number> {
  return (
    await db().agentKeyRefusalWindow.deleteMany({
      where: { windowStart: { lt: new Date(now.getTime() - 86_400_000) } },
    })
  ).count;
}
