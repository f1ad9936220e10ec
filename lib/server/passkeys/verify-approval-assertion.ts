import "server-only";
import { verifyAuthenticationResponse } from "@simplewebauthn/server";
import {
  APPROVAL_CHALLENGE_VERSION,
  isApprovalChallengeFor,
  nonceOfApprovalChallenge,
} from "@/lib/domain/passkey-challenge";
import {
  APPROVAL_CHALLENGE_DERIVATION,
  challengeOf,
  type PasskeyApprovalEvidence,
} from "@/lib/domain/verify-passkey-approval";
import type { AuthenticationResponseInput } from "@/lib/schemas/passkeys";
import type { Tx } from "@/lib/server/db/client";
import { webAuthnRelyingParty } from "@/lib/server/env";
import { consumeChallenge } from "./challenges";

export type ApprovalAssertionResult =
  | { ok: true; credentialId: string; evidence: PasskeyApprovalEvidence }
  | {
      ok: false;
      reason:
        | "challenge_unknown"
        | "challenge_used"
        | "challenge_expired"
        | "challenge_mismatch"
        | "unknown_credential"
        | "assertion_invalid"
        | "counter_replay";
      message: string;
    };

/**
 * Verifies a passkey assertion sent with an approval, inside the approval's transaction (the proposal row is
 * locked and its presented hash already checked by the caller):
 * the answered challenge must be one issued to this user for this proposal, unused and unexpired; it must be
 * exactly the challenge derived from the proposal's id and *current* hash with its nonce; the credential must
 * be this user's; the signature, RP ID, origin and user verification must verify with the stored public key.
 * The challenge is consumed (guarded update, count 1) before the signature is checked, so each challenge
 * gets one attempt, and the credential's counter moves forward with a guarded update. On success it returns
 * the evidence to store on the Approval row (verify later with lib/domain/verify-passkey-approval.ts).
 */
export async function verifyApprovalAssertion(
  tx: Tx,
  args: {
    userId: string;
    tenantId: string;
    proposal: { id: string; hash: string };
    response: AuthenticationResponseInput;
    now: Date;
  },
): Promise<ApprovalAssertionResult> {
  const { userId, tenantId, proposal, response, now } = args;
  const fail = (reason: Extract<ApprovalAssertionResult, { ok: false }>["reason"], message: string) => ({
    ok: false as const,
    reason,
    message,
  });

  const challenge = challengeOf(response.response.clientDataJSON);
  const row = challenge
    ? await tx.webAuthnChallenge.findFirst({
        where: { staffUserId: userId, purpose: "approve", proposalId: proposal.id, challenge },
        select: { id: true, usedAt: true, expiresAt: true },
      })
    : null;
  if (!row || !challenge)
    return fail("challenge_unknown", "This passkey answer does not belong to a request for this proposal. Try again.");
  if (row.usedAt) return fail("challenge_used", "This passkey answer was already used. Try again.");
  if (row.expiresAt <= now) return fail("challenge_expired", "The passkey request expired. Try again.");
  if (!(await consumeChallenge(tx, { id: row.id, staffUserId: userId, purpose: "approve" }, now))) {
    return fail("challenge_used", "This passkey answer was already used. Try again.");
  }
  // Issued for this proposal, but the hash may have changed since: the signature must cover the current one.
  if (!isApprovalChallengeFor(challenge, { proposalId: proposal.id, proposalHash: proposal.hash })) {
    return fail(
      "challenge_mismatch",
      "The passkey signed a different version of this proposal. Reload and review it again.",
    );
  }

  const credential = await tx.passkeyCredential.findFirst({
    where: { id: response.id, staffUserId: userId, tenantId, removedAt: null },
  });
  if (!credential) return fail("unknown_credential", "That passkey is not registered to you.");

  const rp = webAuthnRelyingParty();
  let info;
  try {
    const verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      credential: {
        id: credential.id,
        publicKey: new Uint8Array(Buffer.from(credential.publicKey, "base64url")),
        counter: credential.counter,
        transports: credential.transports,
      },
      requireUserVerification: true,
    });
    if (!verification.verified) return fail("assertion_invalid", "The passkey signature could not be verified.");
    info = verification.authenticationInfo;
  } catch {
    // The library throws for a lower counter too (a cloned authenticator): both are a failed step-up.
    return fail("assertion_invalid", "The passkey signature could not be verified.");
  }

  const moved = await tx.passkeyCredential.updateMany({
    where: { id: credential.id, counter: credential.counter, removedAt: null },
    data: { counter: info.newCounter, lastUsedAt: now },
  });
  if (moved.count !== 1) return fail("counter_replay", "The passkey was used concurrently. Try again.");

  const evidence: PasskeyApprovalEvidence = {
    version: APPROVAL_CHALLENGE_VERSION,
    derivation: APPROVAL_CHALLENGE_DERIVATION,
    proposalId: proposal.id,
    proposalHash: proposal.hash,
    nonce: nonceOfApprovalChallenge(challenge)!,
    challenge,
    rpID: rp.rpID,
    origin: rp.origin,
    credentialId: credential.id,
    publicKey: credential.publicKey,
    counter: info.newCounter,
    userVerified: info.userVerified,
    verifiedAt: now.toISOString(),
    response,
  };
  return { ok: true, credentialId: credential.id, evidence };
}
