import "server-only";
import { APP_VERSION } from "@/lib/config/version";
import { db } from "@/lib/server/db/client";
import { log } from "@/lib/server/log";
import { checkSignedHistory, type SignedHistoryHealth } from "@/lib/server/audit/check-signed-history";

export type Health = {
  status: "ok" | "degraded";
  version: string;
  checks: { app: "ok"; database: "ok" | "unreachable"; auditChain: "ok" | "broken" | "unchecked" | "unknown"; auditSignedHistory?: SignedHistoryHealth };
  time: string;
};

export async function checkHealth(): Promise<Health> {
  let database: Health["checks"]["database"] = "ok";
  let auditChain: Health["checks"]["auditChain"] = "unknown";
  let auditSignedHistory: SignedHistoryHealth | undefined;
  try {
    await db().$queryRaw`SELECT 1`;
    // The newest stored verification (job, npm run audit:verify or the admin page), never process memory.
    const last = await db().auditChainCheck.findFirst({ orderBy: { checkedAt: "desc" }, select: { ok: true } });
    auditChain = !last ? "unchecked" : last.ok ? "ok" : "broken";
    auditSignedHistory = await checkSignedHistory();
  } catch (error) {
    database = "unreachable";
    log.error({ err: error instanceof Error ? error.message : String(error) }, "health: database unreachable");
  }
  const degraded = database !== "ok" || auditChain === "broken" || auditSignedHistory === "tampered";
  return {
    status: degraded ? "degraded" : "ok",
    version: APP_VERSION,
    checks: { app: "ok", database, auditChain, auditSignedHistory },
    time: new Date().toISOString(),
  };
}
