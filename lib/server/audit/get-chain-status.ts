import "server-only";
import { assertCan, can } from "@/lib/domain/permissions";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";
import { lastChainCheck } from "./verify-all-chains";
import { latestCheckpoint } from "./tree-store";
import { verifyAuditChain } from "./verify-chain";

export type ChainStatus = {
  /** This tenant's own log: its newest signed checkpoint (how many events the signed tree holds, when). */
  ownLog: { treeSize: number; issuedAt: Date; keyId: string } | null;
  /**
   * The newest stored verification of all chains, as this tenant may see it; null when none ran yet — and
   * always null for auditors: it spans every tenant, and whether another tenant's chain broke is not theirs
   * to know. Auditors verify their own tenant's log instead (verifyOwnAuditLog).
   */
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
   * Admins only (null for auditors): it is about keys and the gateway, not about this tenant's trail.
   */
  refusedKeys: { ownKeys: number; unknownKeys: number } | null;
  /** Whether the viewer may run a verification now (admins). */
  mayVerify: boolean;
};

/**
 * What auditors and admins see of the audit logs: the newest stored check, this tenant's retention and
 * newest retention purge. The stored check covers every tenant; when the break is in another tenant's
 * chain, this tenant learns only that a break exists — never that tenant's name, seq or problem.
 */
export async function getChainStatus(actor: Actor): Promise<ChainStatus> {
  assertCan(actor.roles, "audit:read");
  const tenantId = actor.tenantId;
  const isAdmin = can(actor.roles, "admin:manage");
  const since = new Date(Date.now() - 24 * 3600_000);
  const [check, checkpoint, tenant, ownKeys, unknownKeys, signed] = await Promise.all([
    isAdmin ? lastChainCheck() : null,
    db().auditPurge.findFirst({
      where: { logId: tenantId },
      orderBy: { before: "desc" },
      select: { before: true, purgedCount: true },
    }),
    db().tenant.findUniqueOrThrow({ where: { id: tenantId }, select: { slug: true, retentionDays: true } }),
    isAdmin
      ? db().auditEvent.count({ where: { tenantId, action: "agent:key_refused", occurredAt: { gte: since } } })
      : 0,
    isAdmin
      ? db().auditEvent.count({ where: { tenantId: null, action: "agent:key_refused", occurredAt: { gte: since } } })
      : 0,
    latestCheckpoint(db(), tenantId),
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
  return {
    ownLog: signed ? { treeSize: signed.treeSize, issuedAt: new Date(signed.issuedAt), keyId: signed.keyId } : null,
    check: view,
    retentionDays: tenant.retentionDays,
    checkpoint,
    refusedKeys: isAdmin ? { ownKeys, unknownKeys } : null,
    mayVerify: isAdmin,
  };
}

export type OwnLogVerification =
  | { ok: true; checkedAt: Date; events: number; checkpoints: number; pending: number }
  | { ok: false; checkedAt: Date; events: number; seq: number; problem: string };

/**
 * Walks the actor's own tenant log now (auditors, admins): every leaf against its event, every signed
 * checkpoint, the consistency proofs. Only this tenant's chain is read; nothing is stored.
 */
export async function verifyOwnAuditLog(actor: Actor): Promise<OwnLogVerification> {
  assertCan(actor.roles, "audit:read");
  const v = await verifyAuditChain(actor.tenantId);
  const checkedAt = new Date();
  return v.ok
    ? { ok: true, checkedAt, events: v.events, checkpoints: v.checkpoints, pending: v.pending }
    : { ok: false, checkedAt, events: v.events, seq: v.brokenAtSeq, problem: v.problem };
}
