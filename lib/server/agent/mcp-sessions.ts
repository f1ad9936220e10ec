import "server-only";
// MCP sessions, only where they are needed (docs/agent-api.md "MCP: asking the customer to confirm"). The MCP endpoint
// is stateless: every request is its own server, and nothing of `initialize` is remembered — so a later tools/call
// cannot know what the client declared. A client that declares URL-mode elicitation (`capabilities.elicitation.url`)
// is the one exception: its `initialize` answer carries an `Mcp-Session-Id`, the session (the client's capabilities)
// is kept here, and every later request that carries the id — on any instance — may be sent `elicitation/create`.
// Every other client stays sessionless, as before.
//
// Only the SHA-256 of the id is stored. A session belongs to the agent key that opened it: with another key (of this
// tenant or another), or after it expired, the id is unknown and the request is answered 404 (MCP: the client starts a
// new session).
import { createHash, randomBytes } from "node:crypto";
import { withPgTransaction } from "@/lib/server/db/pg";
import { nowUtc, sql } from "@/lib/server/db/sql";
import type { AgentCaller } from "./authenticate-agent-key";
import { GATEWAY_TX } from "./tool-context";

/** How long a session lasts from its `initialize`. */
export const MCP_SESSION_HOURS = 24;

export type McpSession = {
  /** The client declared URL-mode elicitation: it may be asked to open a confirmation page. */
  urlElicitation: boolean;
};

const hashOf = (id: string) => createHash("sha256").update(id, "utf8").digest("hex");

/** What an `initialize` body asks for: the declared capabilities, or null when it is not an initialize request. */
export function initializeOf(body: unknown): { capabilities: Record<string, unknown>; protocolVersion: string } | null {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return null;
  const m = body as { method?: unknown; params?: { capabilities?: unknown; protocolVersion?: unknown } };
  if (m.method !== "initialize" || typeof m.params !== "object" || m.params === null) return null;
  const capabilities =
    typeof m.params.capabilities === "object" && m.params.capabilities !== null && !Array.isArray(m.params.capabilities)
      ? (m.params.capabilities as Record<string, unknown>)
      : {};
  const protocolVersion = typeof m.params.protocolVersion === "string" ? m.params.protocolVersion.slice(0, 32) : "";
  return { capabilities, protocolVersion };
}

/** Whether declared capabilities include URL-mode elicitation (`elicitation: { url: {} }`). */
export function declaresUrlElicitation(capabilities: Record<string, unknown>): boolean {
  const e = capabilities.elicitation;
  return typeof e === "object" && e !== null && typeof (e as { url?: unknown }).url === "object";
}

/** Opens a session for the key; the id to send as `Mcp-Session-Id` (never stored). */
export async function openMcpSession(
  caller: AgentCaller,
  init: { capabilities: Record<string, unknown>; protocolVersion: string },
): Promise<string> {
  const id = randomBytes(32).toString("base64url");
  // Bounded: only the elicitation part is kept (what later requests need), never a free-form object of any size.
  const kept = { elicitation: init.capabilities.elicitation ?? null };
  await withPgTransaction(
    (tx) =>
      sql`
        INSERT INTO "McpSession" ("idHash", "tenantId", "agentKeyId", "capabilities", "protocolVersion", "expiresAt")
        VALUES (${hashOf(id)}, ${caller.tenantId}::uuid, ${caller.keyId}::uuid, ${JSON.stringify(kept)}::jsonb,
                ${init.protocolVersion}, ${nowUtc} + make_interval(hours => ${MCP_SESSION_HOURS}))`.execute(tx),
    GATEWAY_TX,
  );
  return id;
}

/** The key's unexpired session with this id, or null. */
export async function findMcpSession(caller: AgentCaller, id: string): Promise<McpSession | null> {
  if (id.length === 0 || id.length > 128) return null;
  const row = await withPgTransaction(
    async (tx) =>
      (
        await sql<{ capabilities: Record<string, unknown> }>`
          SELECT "capabilities" FROM "McpSession"
           WHERE "idHash" = ${hashOf(id)} AND "tenantId" = ${caller.tenantId}::uuid
             AND "agentKeyId" = ${caller.keyId}::uuid AND "expiresAt" > ${nowUtc}`.execute(tx)
      ).rows[0],
    GATEWAY_TX,
  );
  return row ? { urlElicitation: declaresUrlElicitation(row.capabilities) } : null;
}
