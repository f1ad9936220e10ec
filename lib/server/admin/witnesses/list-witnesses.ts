import "server-only";
import { assertCan } from "@/lib/domain/permissions";
import { formatWitnessPolicy } from "@/lib/domain/witness-policy";
import type { Actor } from "@/lib/server/auth/actor";
import { db } from "@/lib/server/db/client";
import { auditOrigin } from "@/lib/server/audit/signing-key";

export type WitnessRow = {
  id: string;
  name: string;
  vkey: string;
  url: string;
  createdAt: Date;
  cosignedSize: number | null;
  cosignedAt: Date | null;
  lastAttemptAt: Date | null;
  lastError: string | null;
};
export type WitnessList = {
  witnesses: WitnessRow[];
  quorum: number;
  /** The tenant's log origin (what the witnesses cosign). */
  origin: string;
  /** The policy file an auditor pins for `npm run evidence:verify -- --policy` (docs/audit.md). */
  policy: string;
};

/** The tenant's witnesses with what the sequencer last learned from each, the quorum and the policy file (admins). */
export async function listWitnesses(actor: Actor): Promise<WitnessList> {
  assertCan(actor.roles, "admin:manage");
  const [tenant, witnesses] = await Promise.all([
    db().tenant.findUniqueOrThrow({ where: { id: actor.tenantId }, select: { witnessQuorum: true, slug: true } }),
    db().auditWitness.findMany({
      where: { tenantId: actor.tenantId },
      orderBy: { name: "asc" },
      select: {
        id: true,
        name: true,
        vkey: true,
        url: true,
        createdAt: true,
        cosignedSize: true,
        cosignedAt: true,
        lastAttemptAt: true,
        lastError: true,
      },
    }),
  ]);
  const origin = auditOrigin(actor.tenantId);
  return {
    witnesses,
    quorum: tenant.witnessQuorum,
    origin,
    policy: formatWitnessPolicy(
      witnesses,
      tenant.witnessQuorum,
      `witness policy of ${origin} (tenant ${tenant.slug}); verify it with each witness's owner`,
    ),
  };
}
