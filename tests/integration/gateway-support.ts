// Helpers for the gateway integration tests (tests/integration/gateway-*.test.ts): call the real route
// handlers with a Request, read the JSON content back.
import { SignJWT } from "jose";
import { endUserTokenAudience } from "@/lib/domain/agent-protocol";
import { agentKey, channelSecret, customerId, mintEndUserToken } from "../../scripts/lib/demo-data";
import { POST as toolCallsPOST } from "@/app/api/agent/tool-calls/route";

export const ES = "tienda-es";
export const US = "shop-us";
export const webKey = (tenant = ES) => agentKey(tenant, "web_support");
export const communityKey = (tenant = ES) => agentKey(tenant, "community_chat");
export const ana = customerId(ES, "ana");
export const pablo = customerId(ES, "pablo");
export const john = customerId(US, "john");
export const tokenFor = (tenant: string, customer: string, ttlSeconds?: number) =>
  mintEndUserToken(tenant, "web_support", customer, ttlSeconds);

/**
 * A hand-made end-user token. `aud` defaults to the claimed tenant's web_support channel (pass `aud: null`
 * to leave it out); `iat` defaults to now (pass `iat: null` to leave it out, or a number of seconds).
 */
export async function signToken(
  claims: Record<string, unknown>,
  secret: string,
  exp: number | null = Math.floor(Date.now() / 1000) + 3600,
): Promise<string> {
  const { aud, iat, ...rest } = claims;
  const payload: Record<string, unknown> = { ...rest };
  if (aud !== null) payload.aud = aud ?? endUserTokenAudience(String(claims.tenant), "web_support");
  let jwt = new SignJWT(payload).setProtectedHeader({ alg: "HS256" });
  if (iat !== null) jwt = jwt.setIssuedAt(typeof iat === "number" ? iat : undefined);
  if (exp !== null) jwt = jwt.setExpirationTime(exp);
  return jwt.sign(new TextEncoder().encode(secret));
}
export { channelSecret };

export type Answer = {
  status: number;
  traceId: string | null;
  body: Record<string, unknown>;
  /** The parsed content/output JSON. */
  content: {
    code: string;
    result?: Record<string, unknown>;
    error?: Record<string, unknown> & { message: string };
    traceId: string;
  };
  raw: string;
};

export async function send(body: unknown, headers: Record<string, string> = {}, rawBody?: string): Promise<Answer> {
  const req = new Request("http://localhost/api/agent/tool-calls", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: rawBody ?? JSON.stringify(body),
  });
  const res = await toolCallsPOST(req);
  const raw = await res.text();
  const parsed = JSON.parse(raw) as Record<string, unknown>;
  // A 401/429/413 before the family is known is the neutral {code, error, traceId} itself.
  const inner = (parsed.content ?? parsed.output) as string | undefined;
  return {
    status: res.status,
    traceId: res.headers.get("x-trace-id"),
    body: parsed,
    content: inner === undefined ? (parsed as Answer["content"]) : JSON.parse(inner),
    raw,
  };
}

let n = 0;
export const anthropicCall = (name: string, input: unknown) => ({ type: "tool_use", id: `toolu_${++n}`, name, input });
export const openaiCall = (name: string, args: unknown) => ({
  type: "function_call",
  call_id: `call_${++n}`,
  name,
  arguments: JSON.stringify(args),
});

export function headersFor(
  opts: { key?: string | null; token?: string | null; trace?: string; model?: string } = {},
): Record<string, string> {
  const h: Record<string, string> = {};
  const key = opts.key === undefined ? webKey() : opts.key;
  if (key) h.authorization = `Bearer ${key}`;
  if (opts.token) h["x-end-user-token"] = opts.token;
  if (opts.trace) h["x-trace-id"] = opts.trace;
  if (opts.model) h["x-agent-model"] = opts.model;
  return h;
}

export const freshTrace = () => `test-${Math.random().toString(36).slice(2)}-${Date.now()}`;
export const chatCall = (name: string, args: unknown) => ({
  id: `call_chat_${++n}`,
  type: "function",
  function: { name, arguments: JSON.stringify(args) },
});
