import "server-only";
import { jwtVerify, errors as joseErrors } from "jose";
import { endUserTokenAudience } from "@/lib/domain/agent-protocol";
import { wellFormed } from "@/lib/domain/redaction";
import type { AgentCaller } from "./authenticate-agent-key";

/** Why a token was refused (docs/agent-api.md "End user"). */
export const END_USER_TOKEN_PROBLEMS = [
  "expired",
  "too_old",
  "issued_in_future",
  "wrong_audience",
  "bad_signature",
  "wrong_tenant",
  "malformed",
] as const;
export type EndUserTokenProblem = (typeof END_USER_TOKEN_PROBLEMS)[number];

/** Verified: the customer the token names, or `null` when there is no token (anonymous). */
export type EndUser = { ok: true; customerId: string | null } | { ok: false; reason: EndUserTokenProblem };

/**
 * The `reason` of the agent's `permission_denied` for a refused token: `end_user_token_<problem>`, so the
 * integrator reads which (expired, too old, another channel, bad signature, malformed …) while the agent gets one
 * instruction. Every reason starts with `end_user_token_`.
 */
export function endUserTokenReason(problem: EndUserTokenProblem): `end_user_token_${EndUserTokenProblem}` {
  return `end_user_token_${problem}`;
}

// eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** Seconds of clock difference tolerated between the channel integration and us. */
const CLOCK_TOLERANCE_SECONDS = 5;

/**
 * The end user is asserted by the channel integration, never by the model: an HS256 JWT signed with the
 * channel's secret, with `sub` (customer id), `tenant` (must be the key's tenant), `aud` (tenant/channel:
 * bound to the key's channel), `iat` and `exp` (both required). A token older than the tenant's
 * `endUserTokenMaxAgeSeconds` is refused even when its `exp` is far away (a leaked long-lived token stops
 * working), and so is one issued in the future.
 * No header = anonymous (`customerId: null`); a header that does not verify is refused (never silently anonymous).
 */
export async function verifyEndUserToken(
  token: string | null,
  caller: AgentCaller,
  now: Date = new Date(),
): Promise<EndUser> {
  if (token === null || token.trim() === "") return { ok: true, customerId: null };
  if (token.length > 4096) return { ok: false, reason: "malformed" };
  try {
    const verify = (secret: string) =>
      jwtVerify(token.trim(), new TextEncoder().encode(secret), {
        algorithms: ["HS256"],
        requiredClaims: ["exp", "sub", "iat", "aud"],
        audience: endUserTokenAudience(caller.tenantSlug, caller.channelSlug),
        maxTokenAge: caller.endUserTokenMaxAgeSeconds,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        currentDate: now,
      });
    let verified;
    try {
      verified = await verify(caller.channelSecret);
    } catch (error) {
      // Secret rotation: during the overlap window the previous secret still verifies.
      const overlap =
        caller.previousChannelSecret && caller.previousSecretValidUntil && caller.previousSecretValidUntil > now;
      if (!(error instanceof joseErrors.JWSSignatureVerificationFailed) || !overlap) throw error;
      verified = await verify(caller.previousChannelSecret!);
    }
    const { payload } = verified;
    if (typeof payload.iat !== "number" || payload.iat > Math.floor(now.getTime() / 1000) + CLOCK_TOLERANCE_SECONDS)
      return { ok: false, reason: "issued_in_future" };
    if (payload.tenant !== caller.tenantSlug) return { ok: false, reason: "wrong_tenant" };
    if (typeof payload.sub !== "string" || payload.sub.length === 0 || payload.sub.length > 128)
      return { ok: false, reason: "malformed" };
    // A customer id is printable text: a control character (NUL cannot even be stored in PostgreSQL text)
    // or a lone surrogate makes the token malformed, a clean refusal rather than a failed query later.
    if (CONTROL.test(payload.sub) || wellFormed(payload.sub) !== payload.sub) return { ok: false, reason: "malformed" };
    return { ok: true, customerId: payload.sub };
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired)
      return { ok: false, reason: error.claim === "iat" ? "too_old" : "expired" };
    if (error instanceof joseErrors.JWSSignatureVerificationFailed) return { ok: false, reason: "bad_signature" };
    if (error instanceof joseErrors.JWTClaimValidationFailed) {
      if (error.reason === "missing") return { ok: false, reason: "malformed" };
      if (error.claim === "aud") return { ok: false, reason: "wrong_audience" };
      if (error.claim === "iat")
        return { ok: false, reason: error.reason === "check_failed" ? "issued_in_future" : "malformed" };
    }
    return { ok: false, reason: "malformed" };
  }
}
