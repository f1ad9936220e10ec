import "server-only";
import { randomUUID } from "node:crypto";
import { keyIdOf, retiredKeyLabel } from "@/lib/domain/audit-log";
import { db } from "@/lib/server/db/client";
import { sqlOf } from "@/lib/server/db/sql";
import { recordAuditEvent } from "./record-event";
import { auditRetiredKeys } from "./signing-key";
import { verifyAuditChain } from "./verify-chain";
import { transaction } from "@/lib/server/db/transaction";

export type AllChainsVerification = {
  ok: boolean;
  tenants: number;
  events: number;
  broken: {
    tenantId: string | null;
    tenantSlug: string | null;
    seq: number;
    eventId: string | null;
    problem: string;
  } | null;
  /** Retired keys that signed checkpoints within their validity, named with their period (a rotation, not tampering). */
  signedByRetired: string[];
  checkedAt: string;
};

/**
 * Verifies every tenant chain (and the tenantless one), stores the result in AuditChainCheck (the health
 * check reads the newest row: no process memory), and on a break writes an `audit:chain_broken` alert event
 * into the broken tenant's chain (appending is still possible: the new event links to the current head).
 */
export async function verifyAllAuditChains(source: string): Promise<AllChainsVerification> {
  const tenants = await db().tenant.findMany({ select: { id: true, slug: true }, orderBy: { slug: "asc" } });
  const chains: { id: string | null; slug: string | null }[] = [
    ...tenants.map((t) => ({ id: t.id, slug: t.slug })),
    { id: null, slug: null },
  ];
  let events = 0;
  let broken: AllChainsVerification["broken"] = null;
  const retiredUsed = new Set<string>();
  for (const chain of chains) {
    const v = await verifyAuditChain(chain.id);
    events += v.events;
    if (!v.ok && !broken)
      broken = {
        tenantId: chain.id,
        tenantSlug: chain.slug,
        seq: v.brokenAtSeq,
        eventId: v.eventId,
        problem: v.problem,
      };
    if (v.ok) for (const k of v.signedByRetired) retiredUsed.add(k);
  }
  const signedByRetired = auditRetiredKeys()
    .filter((r) => retiredUsed.has(keyIdOf(r.key)))
    .map((r) => `signed by ${retiredKeyLabel(r)}`);
  const checkedAt = new Date();
  await transaction(async (tx) => {
    await tx.auditChainCheck.create({
      data: {
        ok: !broken,
        tenants: tenants.length,
        events,
        tenantId: broken?.tenantId ?? null,
        brokenAtSeq: broken?.seq ?? null,
        eventId: broken?.eventId ?? null,
        problem: broken?.problem ?? null,
        signedByRetired,
        source,
        checkedAt,
      },
    });
    if (broken) {
      await recordAuditEvent(sqlOf(tx), {
        tenantId: broken.tenantId,
        traceId: `audit-verify-${randomUUID()}`,
        actor: { type: "system", id: source },
        action: "audit:chain_broken",
        outcome: "internal_error",
        data: { brokenAtSeq: broken.seq, eventId: broken.eventId, problem: broken.problem },
        redaction: { clear: ["brokenAtSeq", "eventId", "problem"] },
      });
    }
  });
  return { ok: !broken, tenants: tenants.length, events, broken, signedByRetired, checkedAt: checkedAt.toISOString() };
}

/** The newest stored verification result (null when none ran yet). */
export async function lastChainCheck() {
  return db().auditChainCheck.findFirst({ orderBy: { checkedAt: "desc" } });
}
