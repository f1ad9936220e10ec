// The gateway side every example shares: where it is, who is calling, and the two HTTP calls of the agent
// contract (docs/agent-api.md). Plain fetch: nothing here depends on a vendor SDK.

export type GatewayConfig = {
  /** e.g. http://localhost:3000 */
  baseUrl: string;
  /** Authorization: Bearer <agent key> — one agent of one tenant on one channel. */
  agentKey: string;
  /** X-End-User-Token: the channel integration's signed statement of who the customer is (never the model's). */
  endUserToken?: string;
  /** One trace per conversation: the gateway's budgets and audit trail are per trace. */
  traceId: string;
  /** Recorded in the audit trail with every call. */
  model?: string;
  promptVersion?: string;
};

export function gatewayHeaders(cfg: GatewayConfig): Record<string, string> {
  const h: Record<string, string> = { authorization: `Bearer ${cfg.agentKey}`, "x-trace-id": cfg.traceId };
  if (cfg.endUserToken) h["x-end-user-token"] = cfg.endUserToken;
  if (cfg.model) h["x-agent-model"] = cfg.model;
  if (cfg.promptVersion) h["x-agent-prompt-version"] = cfg.promptVersion;
  return h;
}

/** GET /api/agent/tools?format=… — the tools this key may call, in the vendor's own strict shape. */
export async function listGatewayTools<T = Record<string, unknown>>(
  cfg: GatewayConfig,
  format: "anthropic" | "openai" | "openai_chat",
): Promise<T[]> {
  const res = await fetch(`${cfg.baseUrl}/api/agent/tools?format=${format}`, {
    headers: gatewayHeaders(cfg),
    signal: AbortSignal.timeout(15_000),
  });
  if (!res.ok) throw new Error(`GET /api/agent/tools answered HTTP ${res.status}: check the agent key`);
  return ((await res.json()) as { tools: T[] }).tools;
}

/**
 * POST /api/agent/tool-calls with one call in a vendor's shape; the answer comes back in the same shape.
 * A 401 is the only HTTP error an agent should see (a bad key): it is thrown, because no model can fix it.
 */
export async function postToolCall<T = Record<string, unknown>>(cfg: GatewayConfig, call: unknown): Promise<T> {
  const res = await fetch(`${cfg.baseUrl}/api/agent/tool-calls`, {
    method: "POST",
    headers: { ...gatewayHeaders(cfg), "content-type": "application/json" },
    body: JSON.stringify(call),
    signal: AbortSignal.timeout(30_000),
  });
  if (res.status === 401) throw new Error("The gateway refused the agent key (HTTP 401).");
  return (await res.json()) as T;
}

/** The code inside a tool answer's content string ({"code", "result" | "error", "traceId"}). */
export function codeOf(content: string): string {
  try {
    const code = (JSON.parse(content) as { code?: unknown }).code;
    return typeof code === "string" ? code : "unknown";
  } catch {
    return "unknown";
  }
}
