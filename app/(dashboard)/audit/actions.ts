"use server";

import { revalidatePath } from "next/cache";
import { requirePermission } from "@/lib/server/auth/actor";
import { verifyAllAuditChains } from "@/lib/server/audit/verify-all-chains";
import { placeLegalHold } from "@/lib/server/audit/place-legal-hold";
import { verifyOwnAuditLog } from "@/lib/server/audit/get-chain-status";

export type OwnLogResult =
  | { ok: true; checkedAt: string; events: number; checkpoints: number; pending: number }
  | { ok: false; checkedAt: string; events: number; seq: number; problem: string }
  | null;

/** Auditors and admins: walk this tenant's own log now and say what was found (nothing is stored). */
export async function verifyOwnLogNow(_previous: OwnLogResult): Promise<OwnLogResult> {
  const actor = await requirePermission("audit:read");
  const v = await verifyOwnAuditLog(actor);
  return { ...v, checkedAt: v.checkedAt.toISOString() };
}

// Server actions are public POST endpoints: each re-checks the permission (and the use case the tenant).

/** Admins: walk every chain now; the result is stored and shown on /audit (and in /api/health). */
export async function verifyChainNow(): Promise<void> {
  await requirePermission("admin:manage");
  await verifyAllAuditChains("admin-page");
  revalidatePath("/audit");
}

/** Admins: put a trace under legal hold. */
export async function holdTrace(form: FormData): Promise<void> {
  const actor = await requirePermission("admin:manage");
  const traceId = String(form.get("traceId") ?? "");
  await placeLegalHold(actor, { traceId, reason: String(form.get("reason") ?? "") });
  revalidatePath(`/audit/traces/${encodeURIComponent(traceId)}`);
}
