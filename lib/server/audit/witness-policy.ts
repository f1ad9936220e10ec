import "server-only";
import { parseVkey } from "@/lib/domain/signed-note";
import type { WitnessPolicy } from "@/lib/domain/witness-policy";
import { db } from "@/lib/server/db/client";

/**
 * A tenant's witness policy as stored (its AuditWitness rows and Tenant.witnessQuorum), in the shape of the
 * pinned policy an auditor keeps; null when the tenant has no witness and no quorum (nothing to check).
 */
export async function tenantWitnessPolicy(tenantId: string): Promise<WitnessPolicy | null> {
  const [tenant, witnesses] = await Promise.all([
    db().tenant.findUnique({ where: { id: tenantId }, select: { witnessQuorum: true } }),
    db().auditWitness.findMany({ where: { tenantId }, orderBy: { name: "asc" }, select: { vkey: true } }),
  ]);
  if (!tenant || (witnesses.length === 0 && tenant.witnessQuorum === 0)) return null;
  return { witnesses: witnesses.map((w) => parseVkey(w.vkey)), quorum: tenant.witnessQuorum };
}
