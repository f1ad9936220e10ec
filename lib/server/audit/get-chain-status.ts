import "server-only";
import { assertCan } from "@/lib/domain/permissions";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";
import { lastChainCheck } from "./verify-all-chains";

export type ChainStatus = {
  /** The newest stored verification of all chains, as this tenant may see it; null when none ran yet. */
  check:
    | { ok: true; checkedAt: Date; events: number; tenants: number }
    | { ok: false; checkedAt: Date; ownBreak: { tenantSlug: string; seq: number; problem: string } | null }
    | null;
  retentionDays: number;
  /** This tenant's newest retention purge: content of events before `before` is gone, their leaves stay. */
  checkpoint: { before: Date; purgedCount: number } | null;
  /**
   * Refused agent keys in the last 24 hours, as counted windows (one audit event per minute and source):
   * `ownKeys` for this tenant's revoked or expired keys (in its own log), `unknownKeys` for keys nobody has
   * (the tenantless log, which has no owner: admins see only how many windows, never sources or routes).
   */
  refusedKeys: { ownKeys: number; unknownKeys: number };
};

/**
 * What an admin sees of the audit logs: the newest stored check, this tenant's retention and newest
 * retention purge. The stored check covers every tenant; when the break is in another tenant's chain, this
 * tenant learns only that a break exists — never that tenant's name, seq or problem.
 */
export async function getChainStatus(actor: Actor): Promise<ChainStatus> {
  assertCan(actor.roles, "admin:manage");
  const tenantId = actor.tenantId;
  const since = new Date(Date.now() - 24 * 3600_000);
  const [check, checkpoint, tenant, ownKeys, unknownKeys] = await Promise.all([
    lastChainCheck(),
    db().auditPurge.findFirst({ where: { logId: tenantId }, orderBy: { before: "desc" }, select: { before: true, purgedCount: true } }),
    db().tenant.findUniqueOrThrow({ where: { id: tenantId }, select: { slug: true, retentionDays: true } }),
    db().auditEvent.count({ where: { tenantId, action: "agent:key_refused", occurredAt: { gte: since } } }),
    db().auditEvent.count({ where: { tenantId: null, action: "agent:key_refused", occurredAt: { gte: since } } }),
  ]);
  let view: ChainStatus["check"] = null;
  if (check?.ok) view = { ok: true, checkedAt: check.checkedAt, events: check.events, tenants: check.tenants };
  else if (check) {
    const own = check.tenantId === tenantId;
    view = {
      ok: false,
      checkedAt: check.checkedAt,
      ownBreak: own ? { tenantSlug: tenant.slug, seq: check.brokenAtSeq ?? 0, problem: check.problem ?? "" } : null,
    };
  }
  return { check: view, retentionDays: tenant.retentionDays, checkpoint, refusedKeys: { ownKeys, unknownKeys } };
}
