import "server-only";
import { randomUUID } from "node:crypto";
import { signStandardWebhook } from "@/lib/domain/standard-webhook";
import {
  actionEndpointAnswer,
  actionEndpointRequest,
  type ActionEndpointAnswer,
  type ActionEndpointRequest,
} from "@/lib/schemas/action-endpoint";
import { webhookAllowPrivate } from "@/lib/server/env";
import { guardedRequest, type GuardedRequestAnswer } from "@/lib/server/notifications/guarded-post";
import { ActionEndpointUnavailable, openActionEndpoint, type OpenedActionEndpoint } from "./stored-endpoint";

// The product's client of a tenant's action endpoint (docs/action-endpoint.md; the design's "Action kinds",
// bullet "Executors"): `POST {url}` with the approved action and `GET {url}/{idempotency_key}` for its outcome,
// both signed as Standard Webhooks with the tenant's secret (a GET signs the key it asks about), both through the
// guarded outbound client (URL checked like a webhook's, every resolved address checked at connect time, no
// redirects, one timeout over the exchange, the answer capped). Knows no action kind: the caller says what to send.

/** What the shop answered for an action: done, refused by its rules, or still running at the shop. */
export type ActionAnswer = ActionEndpointAnswer;
/** No answer we can trust: timeout, 5xx, connection lost, a malformed answer. The action may or may not have happened. */
export type ActionUnknown = {
  outcome: "unknown";
  why: string;
  /** No answer in time; the connection failed or was cut; an HTTP status that is no answer (5xx, 3xx, 408, 429); a body not in the format. */
  cause: "timeout" | "connection" | "http_status" | "malformed";
  httpStatus: number | null;
};
/**
 * The shop refused the request itself (401 signature, 400 body, 409 the key reused with another body, 413, any
 * other 4xx): by the contract nothing was done. Not retried blindly: the cause (secret, body) must be fixed first.
 */
export type ActionRefused = { outcome: "refused"; httpStatus: number; error: string | null; why: string };

export type SendActionResult = ActionAnswer | ActionUnknown | ActionRefused;
export type LookupActionResult = ActionAnswer | { outcome: "not_found" } | ActionUnknown | ActionRefused;

/** Per request: the POST may do real work at the shop; the GET only reads. Both bounded (options override, for tests). */
export const ACTION_POST_TIMEOUT_MS = 15_000;
export const ACTION_GET_TIMEOUT_MS = 10_000;
/** The answer is a few fields: more than this is not read (and is a malformed answer). */
export const ACTION_MAX_RESPONSE_BYTES = 64 * 1024;

export type ActionCallOptions = { timeoutMs?: number };

/**
 * Sends one approved action to the tenant's endpoint. The same `idempotency_key` may be sent again (after a
 * `not_found` lookup) and the shop does it at most once. Throws ActionEndpointUnavailable when nothing could be
 * sent (no endpoint, its secret does not open, its URL refused); every other failure is an answer here.
 */
export async function sendAction(
  tenantId: string,
  action: ActionEndpointRequest,
  options: ActionCallOptions = {},
): Promise<SendActionResult> {
  const body = JSON.stringify(actionEndpointRequest.parse(action));
  const endpoint = await openActionEndpoint(tenantId);
  const answer = await call(endpoint, {
    method: "POST",
    url: endpoint.url,
    body,
    signed: body,
    timeoutMs: options.timeoutMs ?? ACTION_POST_TIMEOUT_MS,
  });
  return readAnswer(answer, { notFoundAllowed: false }) as SendActionResult;
}

/**
 * What the shop holds for one idempotency key: its stored answer, `not_found` (it never arrived, was refused
 * before any work, or has not committed yet: then re-send the POST with the same key), or unknown.
 */
export async function lookupAction(
  tenantId: string,
  idempotencyKey: string,
  options: ActionCallOptions = {},
): Promise<LookupActionResult> {
  const endpoint = await openActionEndpoint(tenantId);
  return lookupAt(endpoint, idempotencyKey, options);
}

/** lookupAction against an endpoint already opened (Admin's "Test" probes with it). */
export async function lookupAt(
  endpoint: Pick<OpenedActionEndpoint, "url" | "secrets">,
  idempotencyKey: string,
  options: ActionCallOptions = {},
): Promise<LookupActionResult> {
  if (idempotencyKey.length === 0 || idempotencyKey.length > 255) throw new Error("idempotency key: 1–255 characters");
  const answer = await call(endpoint, {
    method: "GET",
    url: keyUrl(endpoint.url, idempotencyKey),
    signed: idempotencyKey,
    timeoutMs: options.timeoutMs ?? ACTION_GET_TIMEOUT_MS,
  });
  return readAnswer(answer, { notFoundAllowed: true });
}

/** `{url}/{percent-encoded key}`, keeping the URL's query (if the shop put one in it). */
export function keyUrl(base: string, idempotencyKey: string): string {
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/${encodeURIComponent(idempotencyKey)}`;
  return url.toString();
}

async function call(
  endpoint: Pick<OpenedActionEndpoint, "url" | "secrets">,
  request: { method: "GET" | "POST"; url: string; body?: string; signed: string; timeoutMs: number },
): Promise<GuardedRequestAnswer> {
  const headers = signStandardWebhook({ id: `msg_${randomUUID()}`, body: request.signed, secrets: endpoint.secrets });
  const answer = await guardedRequest({
    method: request.method,
    url: request.url,
    body: request.body,
    headers: {
      ...headers,
      accept: "application/json",
      "user-agent": "approval-gateway-actions/1",
      ...(request.method === "POST" ? { "content-type": "application/json" } : {}),
    },
    timeoutMs: request.timeoutMs,
    allowPrivate: webhookAllowPrivate(),
    maxResponseBytes: ACTION_MAX_RESPONSE_BYTES,
    label: "action endpoint",
  });
  // Refused before any connection: nothing was sent, and retrying the same URL cannot help.
  if (!answer.ok && (answer.failure === "url_refused" || answer.failure === "internal_address"))
    throw new ActionEndpointUnavailable("url_refused", answer.error);
  return answer;
}

function readAnswer(answer: GuardedRequestAnswer, opts: { notFoundAllowed: boolean }): LookupActionResult {
  if (!answer.ok)
    return {
      outcome: "unknown",
      why: answer.error,
      cause: answer.failure === "timeout" ? "timeout" : "connection",
      httpStatus: null,
    };
  const { status } = answer;
  if (!answer.complete)
    return {
      outcome: "unknown",
      why: `HTTP ${status}: the answer was cut off or too large`,
      cause: "malformed",
      httpStatus: status,
    };
  const json = parseJson(answer.body);
  if (status === 200) {
    const parsed = actionEndpointAnswer.safeParse(json);
    if (!parsed.success)
      return {
        outcome: "unknown",
        why: "HTTP 200 with an answer not in the endpoint's format",
        cause: "malformed",
        httpStatus: status,
      };
    const { status: s, reference, message } = parsed.data;
    return message === undefined ? { status: s, reference } : { status: s, reference, message };
  }
  const error = isObject(json) && typeof json.error === "string" ? json.error : null;
  // 404 for a key only when the shop says so in JSON ({} or {error: "not_found"}): an HTML 404 or another error
  // (a wrong path: `unknown_route`) is not "it never arrived".
  if (opts.notFoundAllowed && status === 404 && isObject(json) && (error === null || error === "not_found"))
    return { outcome: "not_found" };
  if (status >= 400 && status < 500 && (status !== 404 || !opts.notFoundAllowed) && status !== 408 && status !== 429)
    return {
      outcome: "refused",
      httpStatus: status,
      error,
      why: `HTTP ${status}${error ? ` ${error}` : ""}${status === 401 || status === 403 ? ": the shop refused our signature (is its secret the one shown in Admin?)" : ""}`,
    };
  return {
    outcome: "unknown",
    why: `HTTP ${status}${error ? ` ${error}` : ""}`,
    cause: "http_status",
    httpStatus: status,
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
