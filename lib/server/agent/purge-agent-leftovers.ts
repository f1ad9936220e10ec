import "server-only";
// Rows the gateway leaves behind that nothing reads once they have expired (job purge_gateway_counters, hourly):
// - customer confirmation links never used: every `approval_required` answer for a proposal the customer confirms
//   issues a fresh one-time link (the token is kept only as its SHA-256, so an earlier link cannot be handed out
//   again), and an agent that polls get_action_status makes one per answer. A used link is the customer's recorded
//   decision (the proposal page, the evidence pack) and is never purged here;
// - MCP tasks and MCP sessions past their expiry: an expired task or session id already answers "not found".
// A day's grace past each expiry keeps a just-expired row readable by whoever investigates. Idempotent; several
// workers at once are harmless (a row deleted twice is simply not found the second time).
import { db } from "@/lib/server/db/client";

export const AGENT_LEFTOVER_GRACE_HOURS = 24;

export async function purgeAgentLeftovers(
  now: Date = new Date(),
): Promise<{ confirmationLinks: number; mcpTasks: number; mcpSessions: number }> {
  const cutoff = new Date(now.getTime() - AGENT_LEFTOVER_GRACE_HOURS * 3600_000);
  const links = await db().customerConfirmation.deleteMany({ where: { usedAt: null, expiresAt: { lt: cutoff } } });
  const tasks = await db().mcpTask.deleteMany({ where: { expiresAt: { lt: cutoff } } });
  const sessions = await db().mcpSession.deleteMany({ where: { expiresAt: { lt: cutoff } } });
  return { confirmationLinks: links.count, mcpTasks: tasks.count, mcpSessions: sessions.count };
}
