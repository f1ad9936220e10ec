import { createHash, timingSafeEqual } from "node:crypto";

/**
 * The WebAuthn challenge of a passkey approval, derived from the proposal it approves (version 1).
 *
 *   nonce     = 16 random bytes, fresh for every attempt
 *   digest    = SHA-256( UTF-8( "approval-v1:" + proposalId + ":" + proposalHash + ":" + base64url(nonce) ) )
 *   challenge = nonce ‖ digest                      (48 bytes; sent to the browser as base64url, 64 chars)
 *
 * The authenticator signs `authenticatorData ‖ SHA-256(clientDataJSON)`, and clientDataJSON contains the
 * challenge, so the assertion is the reviewer's signature over exactly this proposal id and hash. The
 * nonce makes every attempt's challenge different (no replay across attempts) and travels inside the
 * challenge itself, so the challenge row and the stored evidence carry it, and anyone can recompute the
 * challenge offline from (proposalId, proposalHash, nonce) — see docs/passkeys.md.
 *
 * proposalId is a lowercase UUID and proposalHash 64 lowercase hex characters; neither contains ":",
 * and base64url never does, so the message is unambiguous.
 */
export const APPROVAL_CHALLENGE_VERSION = "approval-v1";
export const APPROVAL_NONCE_BYTES = 16;

export type ApprovalChallengeInput = { proposalId: string; proposalHash: string; nonce: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HASH = /^[0-9a-f]{64}$/;
const B64URL = /^[A-Za-z0-9_-]+$/;

function nonceBytes(nonce: string): Buffer {
  if (!B64URL.test(nonce)) throw new Error("nonce must be base64url");
  const bytes = Buffer.from(nonce, "base64url");
  if (bytes.length !== APPROVAL_NONCE_BYTES || bytes.toString("base64url") !== nonce)
    throw new Error(`nonce must be ${APPROVAL_NONCE_BYTES} bytes, canonical base64url`);
  return bytes;
}

/** The challenge (base64url) for approving `proposalId` with `proposalHash`, with the attempt's `nonce`. */
export function deriveApprovalChallenge({ proposalId, proposalHash, nonce }: ApprovalChallengeInput): string {
  if (!UUID.test(proposalId)) throw new Error("proposalId must be a lowercase UUID");
  if (!HASH.test(proposalHash)) throw new Error("proposalHash must be 64 lowercase hex characters");
  const n = nonceBytes(nonce);
  const digest = createHash("sha256")
    .update(`${APPROVAL_CHALLENGE_VERSION}:${proposalId}:${proposalHash}:${nonce}`)
    .digest(); // UTF-8: update()'s default for strings
  return Buffer.concat([n, digest]).toString("base64url");
}

/** The nonce carried in the first bytes of an approval challenge, or null when it is not one. */
export function nonceOfApprovalChallenge(challenge: string): string | null {
  if (!B64URL.test(challenge)) return null;
  const bytes = Buffer.from(challenge, "base64url");
  if (bytes.length !== APPROVAL_NONCE_BYTES + 32) return null;
  return bytes.subarray(0, APPROVAL_NONCE_BYTES).toString("base64url");
}

/** Whether `challenge` is exactly the one derived from this proposal id and hash (and its own nonce). */
export function isApprovalChallengeFor(
  challenge: string,
  proposal: { proposalId: string; proposalHash: string },
): boolean {
  const nonce = nonceOfApprovalChallenge(challenge);
  // Stryker disable next-line ConditionalExpression: deriveApprovalChallenge refuses a null nonce too (caught below).
  if (!nonce) return false;
  let expected: string;
  try {
    expected = deriveApprovalChallenge({ ...proposal, nonce });
  } catch {
    return false;
  }
  const a = Buffer.from(expected);
  const b = Buffer.from(challenge);
  return a.length === b.length && timingSafeEqual(a, b);
}
