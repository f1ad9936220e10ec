import "server-only";
import { generateRegistrationOptions, type PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/server";
import { db } from "@/lib/server/db/client";
import { webAuthnRelyingParty } from "@/lib/server/env";
import type { Actor } from "@/lib/server/auth/actor";
import { CHALLENGE_TTL_MS } from "./challenges";

/**
 * Options for registering a new passkey, for any signed-in staff member (each registers their own). The
 * random challenge is kept in the database (any app instance may receive the answer), single use, 5 minutes.
 * User verification is required: a passkey approval must prove the reviewer, not just a present key.
 */
export async function createRegistrationOptions(actor: Actor): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const rp = webAuthnRelyingParty();
  const existing = await db().passkeyCredential.findMany({
    where: { staffUserId: actor.userId, tenantId: actor.tenantId, removedAt: null },
    select: { id: true, transports: true },
  });
  const options = await generateRegistrationOptions({
    rpName: rp.rpName,
    rpID: rp.rpID,
    userName: actor.email,
    userDisplayName: actor.name,
    // The user handle is the staff id's 16 bytes: stable, and no personal data.
    userID: new Uint8Array(Buffer.from(actor.userId.replace(/-/g, ""), "hex")),
    attestationType: "none",
    excludeCredentials: existing.map((c) => ({ id: c.id, transports: c.transports })),
    authenticatorSelection: { residentKey: "preferred", userVerification: "required" },
    timeout: 120_000,
  });
  await db().webAuthnChallenge.create({
    data: {
      staffUserId: actor.userId,
      purpose: "register",
      challenge: options.challenge,
      expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS),
    },
  });
  return options;
}
