import "server-only";
import { jwtVerify, errors as joseErrors } from "jose";
import type { AgentCaller } from "./authenticate-agent-key";

export type EndUser =
  { kind: "anonymous" } | { kind: "customer"; customerId: string } | { kind: "invalid"; reason: "expired" | "bad_signature" | "wrong_tenant" | "malformed" };

/**
 * The end user is asserted by the channel integration, never by the model: an HS256 JWT signed with the
 * channel's secret, with `sub` (customer id), `tenant` (must be the key's tenant) and `exp` (required).
 * No header = anonymous; a header that does not verify is `invalid` (never silently anonymous).
 */
export async function verifyEndUserToken(token: string | null, caller: AgentCaller): Promise<EndUser> {
  if (token === null || token.trim() === "") return { kind: "anonymous" };
  if (token.length > 4096) return { kind: "invalid", reason: "malformed" };
  try {
    const verify = (secret: string) =>
      jwtVerify(token.trim(), new TextEncoder().encode(secret), { algorithms: ["HS256"], requiredClaims: ["exp", "sub"], clockTolerance: 5 });
    let verified;
    try {
      verified = await verify(caller.channelSecret);
    } catch (error) {
      // Secret rotation: during the overlap window the previous secret still verifies.
      const overlap = caller.previousChannelSecret && caller.previousSecretValidUntil && caller.previousSecretValidUntil > new Date();
      if (!(error instanceof joseErrors.JWSSignatureVerificationFailed) || !overlap) throw error;
      verified = await verify(caller.previousChannelSecret!);
    }
    const { payload } = verified;
    if (payload.tenant !== caller.tenantSlug) return { kind: "invalid", reason: "wrong_tenant" };
    if (typeof payload.sub !== "string" || payload.sub.length === 0 || payload.sub.length > 128) return { kind: "invalid", reason: "malformed" };
    return { kind: "customer", customerId: payload.sub };
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) return { kind: "invalid", reason: "expired" };
    if (error instanceof joseErrors.JWSSignatureVerificationFailed) return { kind: "invalid", reason: "bad_signature" };
    return { kind: "invalid", reason: "malformed" };
  }
}
