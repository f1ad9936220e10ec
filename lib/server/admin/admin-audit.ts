import "server-only";
import { randomUUID } from "node:crypto";
import type { Tx } from "@/lib/server/db/client";
import { sqlOf } from "@/lib/server/db/sql";
import { recordStaffEvent } from "@/lib/server/audit/record-event";
import type { Actor } from "@/lib/server/auth/actor";

/** The audit target of a change to a channel. */
export const channelTarget = (channel: { id: string; slug: string }) => ({
  kind: "channel",
  id: channel.id,
  slug: channel.slug,
});

/** A trace id for one admin action (admin changes are not part of an agent's trace). */
export const adminTraceId = () => `admin-${randomUUID()}`;

/**
 * The audit event of an admin change, written in the change's transaction: who (the admin and how they
 * signed in), what (`admin:<verb>`), on which object (`target`), and `before` → `after`. Field names
 * listed in `clear` stay readable; everything else goes through the audit writer's redaction (emails and
 * names become fingerprints; secrets are never passed here at all).
 */
export function recordAdminEvent(
  tx: Tx,
  actor: Actor,
  input: {
    action: string;
    traceId?: string;
    outcome?: string;
    target: Record<string, unknown>;
    before?: unknown;
    after?: unknown;
    clear?: string[];
  },
) {
  return recordStaffEvent(sqlOf(tx), actor, {
    traceId: input.traceId ?? adminTraceId(),
    action: `admin:${input.action}`,
    outcome: input.outcome ?? "ok",
    data: { target: input.target, before: input.before ?? null, after: input.after ?? null },
    redaction: {
      clear: [
        "target",
        "before",
        "after",
        "id",
        "kind",
        "roles",
        "disabled",
        "locked",
        "sessionVersion",
        "slug",
        "channel",
        "label",
        "tools",
        "allowedTools",
        "expiresAt",
        "revokedAt",
        "previousSecretValidUntil",
        "version",
        "status",
        "values",
        ...(input.clear ?? []),
      ],
    },
  });
}
