import { jsonBody, optionalJsonBody, staffRoute } from "@/lib/server/http/staff-route";
import { getActionEndpoint } from "@/lib/server/admin/action-endpoint/get-action-endpoint";
import { removeActionEndpoint } from "@/lib/server/admin/action-endpoint/remove-action-endpoint";
import { setActionEndpoint } from "@/lib/server/admin/action-endpoint/set-action-endpoint";

export const dynamic = "force-dynamic";

/**
 * GET /api/admin/action-endpoint → {configured, url, secretHint, updatedAt, previousSecretUntil, canStore}: never
 * the secret.
 */
export const GET = staffRoute(async (actor) => getActionEndpoint(actor));

/**
 * PUT /api/admin/action-endpoint {url, rotateSecret?, overlapMinutes?, stepUpPassword?} → 200 {url, secretHint, secret,
 * previousSecretUntil}: `secret` (whsec_…) only when one was generated (first save, rotation), this once; after a
 * rotation the previous secret keeps signing until `previousSecretUntil`.
 */
export const PUT = staffRoute(async (actor, request) => setActionEndpoint(actor, await jsonBody(request)));

/** DELETE /api/admin/action-endpoint {stepUpPassword?} → 200 {removed}. */
export const DELETE = staffRoute(async (actor, request) =>
  removeActionEndpoint(actor, await optionalJsonBody(request)),
);
