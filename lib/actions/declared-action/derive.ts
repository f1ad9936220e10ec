import "server-only";
// The derive request of an admin-declared action (docs/action-kinds.md "Declaring an action"): a signed GET of the
// declared path, filled from the validated input (URL-encoded), on the ORIGIN of the tenant's action endpoint only,
// through the guarded outbound client (the webhooks' SSRF rules: internal addresses refused at check and connect time
// unless this deployment allows them, no redirects), ≤ 5 s, the answer read up to 64 KiB and then dropped (a 10 MB
// answer is never buffered), JSON only. Each declared field is picked by its pointer and must be a string (≤ 500), a
// safe integer or a boolean; a money field must be a non-negative amount in minor units and an ISO 4217 code.
import { randomUUID } from "node:crypto";
import {
  fillDerivePath,
  isDerivedValue,
  pickPointer,
  type ActionDeclarationSpec,
  type DeclaredInput,
  type DerivedValue,
} from "@/lib/domain/action-declaration";
import { signStandardWebhook } from "@/lib/domain/standard-webhook";
import { ActionEndpointUnavailable, openActionEndpoint } from "@/lib/server/action-endpoint/stored-endpoint";
import { webhookAllowPrivate } from "@/lib/server/env";
import { guardedRequest } from "@/lib/server/notifications/guarded-post";

export const DERIVE_TIMEOUT_MS = 5_000;
export const DERIVE_MAX_BYTES = 64 * 1024;

/** Why a derive gave no params (a stable `reason` the agent and the audit read; never a value of the answer). */
export type DeriveProblem =
  | "derive_not_configured"
  | "derive_refused"
  | "derive_unavailable"
  | "derive_too_large"
  | "derive_failed"
  | "derive_field_missing"
  | "derive_field_invalid";

export type DerivedField = { key: string; value: DerivedValue };

export type DeriveResult =
  { ok: true; fields: DerivedField[] } | { ok: false; problem: DeriveProblem; field?: string; status?: number };

/** The URL of the derive request: the endpoint's origin + the filled path (never another host). */
export function deriveUrl(endpointUrl: string, path: string): string | null {
  const origin = new URL(endpointUrl).origin;
  const url = new URL(`${origin}${path}`);
  return url.origin === origin ? url.toString() : null;
}

/** GETs the declared path on the tenant's shop and picks the declared fields, or says why not. */
export async function deriveDeclaredFields(
  tenantId: string,
  spec: Pick<ActionDeclarationSpec, "derive" | "fields" | "policy">,
  input: DeclaredInput,
  options: { timeoutMs?: number } = {},
): Promise<DeriveResult> {
  let endpoint;
  try {
    endpoint = await openActionEndpoint(tenantId);
  } catch (error) {
    if (error instanceof ActionEndpointUnavailable) return { ok: false, problem: "derive_not_configured" };
    throw error;
  }
  const path = fillDerivePath(spec.derive.path, input);
  const url = deriveUrl(endpoint.url, path);
  if (!url) return { ok: false, problem: "derive_refused" };
  // Signed like the endpoint's GET of a key (the shop may check who asks): the signed content is the path and query
  // exactly as sent on the request line.
  const sent = new URL(url);
  const headers = signStandardWebhook({
    id: `msg_${randomUUID()}`,
    body: `${sent.pathname}${sent.search}`,
    secrets: endpoint.secrets,
  });
  const answer = await guardedRequest({
    method: "GET",
    url,
    headers: { ...headers, accept: "application/json", "user-agent": "approval-gateway-derive/1" },
    timeoutMs: options.timeoutMs ?? DERIVE_TIMEOUT_MS,
    allowPrivate: webhookAllowPrivate(),
    maxResponseBytes: DERIVE_MAX_BYTES,
    label: "action endpoint",
  });
  if (!answer.ok)
    return {
      ok: false,
      problem:
        answer.failure === "url_refused" || answer.failure === "internal_address"
          ? "derive_refused"
          : "derive_unavailable",
    };
  if (!answer.complete) return { ok: false, problem: "derive_too_large", status: answer.status };
  if (answer.status >= 500) return { ok: false, problem: "derive_unavailable", status: answer.status };
  if (answer.status !== 200) return { ok: false, problem: "derive_failed", status: answer.status };
  let doc: unknown;
  try {
    doc = JSON.parse(answer.body);
  } catch {
    return { ok: false, problem: "derive_failed", status: answer.status };
  }
  const fields: DerivedField[] = [];
  for (const f of spec.fields) {
    const picked = pickPointer(doc, f.pointer);
    if (!picked.found || picked.value === null) return { ok: false, problem: "derive_field_missing", field: f.key };
    if (!isDerivedValue(picked.value)) return { ok: false, problem: "derive_field_invalid", field: f.key };
    fields.push({ key: f.key, value: picked.value });
  }
  const money = spec.policy.money;
  if (money) {
    const amount = fields.find((f) => f.key === money.amountKey)!.value;
    const currency = fields.find((f) => f.key === money.currencyKey)!.value;
    if (typeof amount !== "number" || amount < 0)
      return { ok: false, problem: "derive_field_invalid", field: money.amountKey };
    if (typeof currency !== "string" || !/^[A-Z]{3}$/.test(currency))
      return { ok: false, problem: "derive_field_invalid", field: money.currencyKey };
  }
  return { ok: true, fields };
}
