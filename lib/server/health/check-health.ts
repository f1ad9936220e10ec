import "server-only";
import { APP_VERSION } from "@/lib/config/version";
import { db } from "@/lib/server/db/client";
import { sqlPool } from "@/lib/server/db/pg";
import { sql } from "@/lib/server/db/sql";
import { log } from "@/lib/server/log";
import {
  checkAuditLogHealth,
  type SignedHistoryHealth,
  type WitnessHealth,
} from "@/lib/server/audit/check-signed-history";

export type Health = {
  status: "ok" | "degraded";
  version: string;
  checks: {
    app: "ok";
    database: "ok" | "unreachable";
    auditChain: "ok" | "broken" | "unchecked" | "unknown";
    auditSignedHistory?: SignedHistoryHealth;
    auditWitnesses?: WitnessHealth | "unknown";
    /** After a key rotation: "signed by retired key K (valid A – B)" per retired key the last verification met (never "tampered"). */
    auditSignedByRetired?: string[];
  };
  time: string;
};

export async function checkHealth(): Promise<Health> {
  let database: Health["checks"]["database"] = "ok";
  let auditChain: Health["checks"]["auditChain"] = "unknown";
  let audit: Awaited<ReturnType<typeof checkAuditLogHealth>> | undefined;
  let signedByRetired: string[] | undefined;
  try {
    await sql`SELECT 1`.execute(sqlPool());
    // The newest stored verification (job, npm run audit:verify or the admin page), never process memory.
    const last = await db().auditChainCheck.findFirst({
      orderBy: { checkedAt: "desc" },
      select: { ok: true, signedByRetired: true },
    });
    auditChain = !last ? "unchecked" : last.ok ? "ok" : "broken";
    signedByRetired = last?.ok && last.signedByRetired.length > 0 ? last.signedByRetired : undefined;
    audit = await checkAuditLogHealth();
  } catch (error) {
    database = "unreachable";
    log.error({ err: error instanceof Error ? error.message : String(error) }, "health: database unreachable");
  }
  const degraded =
    database !== "ok" ||
    auditChain === "broken" ||
    audit?.signedHistory === "tampered" ||
    audit?.witnesses === "refusing" ||
    audit?.witnesses === "stale";
  return {
    status: degraded ? "degraded" : "ok",
    version: APP_VERSION,
    checks: {
      app: "ok",
      database,
      auditChain,
      auditSignedHistory: audit?.signedHistory,
      auditWitnesses: audit?.witnesses,
      ...(signedByRetired ? { auditSignedByRetired: signedByRetired } : {}),
    },
    time: new Date().toISOString(),
  };
}
