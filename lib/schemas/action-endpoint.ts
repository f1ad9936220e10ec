import { z } from "zod";
import { stepUp } from "./step-up";
import { MAX_OVERLAP_MINUTES } from "./admin";
import { MAX_TENANT_WEBHOOK_URL_LENGTH } from "./tenant-webhooks";

/** How long a rotated-out signing secret keeps signing beside the new one unless the admin says otherwise: a day. */
export const DEFAULT_ACTION_ENDPOINT_OVERLAP_MINUTES = 24 * 60;

// The tenant's action endpoint (Admin → Action endpoint, /api/admin/action-endpoint; docs/action-endpoint.md):
// the admin's inputs and views, and the endpoint's wire format (what the gateway sends, what the shop answers).

/**
 * PUT /api/admin/action-endpoint. The first save generates the signing secret; a later save keeps it unless
 * `rotateSecret` is true. A new secret is answered once (`secret`) and never shown again.
 */
export const setActionEndpointInput = z.strictObject({
  url: z.string().trim().min(1).max(MAX_TENANT_WEBHOOK_URL_LENGTH),
  rotateSecret: z.boolean().optional(),
  /** With `rotateSecret`: the current secret keeps signing beside the new one this long (0 = it stops at once). */
  overlapMinutes: z.number().int().min(0).max(MAX_OVERLAP_MINUTES).default(DEFAULT_ACTION_ENDPOINT_OVERLAP_MINUTES),
  ...stepUp,
});
export type SetActionEndpointInput = z.infer<typeof setActionEndpointInput>;

export const removeActionEndpointInput = z.strictObject({ ...stepUp });

/** What Admin shows of the endpoint (never the secret). */
export type ActionEndpointView = {
  configured: boolean;
  url: string | null;
  /** `whsec_…abcd`: never the secret. */
  secretHint: string | null;
  updatedAt: string | null;
  /** After a rotation with an overlap: until when the previous secret still signs beside the current one. */
  previousSecretUntil: string | null;
  /** False when SECRETS_KEY is not configured: nothing can be stored. */
  canStore: boolean;
};

/** The answer of PUT: `secret` only when a new one was generated (first save or rotation), this once. */
export type SetActionEndpointResult = {
  url: string;
  secretHint: string;
  secret: string | null;
  /** After a rotation with an overlap: until when the previous secret still signs beside the new one. */
  previousSecretUntil: string | null;
};

/** Why "Test" failed, as a code the page words. */
export const actionEndpointTestProblems = [
  /** No endpoint stored for the tenant. */
  "not_configured",
  /** The stored secret does not open on this server (SECRETS_KEY rotation; a copied row). */
  "unusable",
  /** The URL is refused by the outbound check (an internal address not allowed here, a bad URL). */
  "url_refused",
  /** No HTTP answer: connection refused, DNS, reset. */
  "unreachable",
  /** No answer within the time limit. */
  "timeout",
  /** 401/403: the shop does not accept our signature (wrong secret at the shop). */
  "signature_refused",
  /** Any other HTTP status, or an answer not in the endpoint's format. */
  "bad_answer",
] as const;
export type ActionEndpointTestProblem = (typeof actionEndpointTestProblems)[number];

/** The answer of "Test": a signed GET of a random key, which must answer 404 or a well-formed answer. */
export type ActionEndpointTest =
  | { ok: true; status: number; latencyMs: number }
  | { ok: false; problem: ActionEndpointTestProblem; message: string; status: number | null };

// ---- The wire format (docs/shop-sandbox.md "The action endpoint") ----

/** What the gateway POSTs: exactly these five fields. */
export const actionEndpointRequest = z.strictObject({
  kind: z.string().min(1).max(100),
  proposal_id: z.string().min(1).max(255),
  idempotency_key: z.string().min(1).max(255),
  subject: z.strictObject({ type: z.string().min(1).max(100), ref: z.string().min(1).max(255) }),
  params: z.record(z.string(), z.unknown()),
});
export type ActionEndpointRequest = z.infer<typeof actionEndpointRequest>;

/** What the shop answers with 200 (POST) or for a key it holds (GET). Unknown extra fields are ignored. */
export const actionEndpointAnswer = z.object({
  status: z.enum(["succeeded", "failed", "pending"]),
  reference: z.string().max(255).nullable(),
  message: z.string().max(2000).optional(),
});
export type ActionEndpointAnswer = z.infer<typeof actionEndpointAnswer>;
