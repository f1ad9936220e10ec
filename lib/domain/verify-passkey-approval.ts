import { verifyAuthenticationResponse } from "@simplewebauthn/server";
import { z } from "zod";
import { authenticationResponseInput } from "../schemas/passkeys";
import { APPROVAL_CHALLENGE_VERSION, deriveApprovalChallenge } from "./passkey-challenge";

/**
 * What a passkey approval stores in `Approval.passkeyAssertion`: the verified WebAuthn assertion exactly as
 * the browser sent it, plus everything needed to check it again later, offline: the nonce (the challenge is
 * re-derived from proposal id + hash + nonce, see passkey-challenge.ts), the relying party it was made for,
 * and a snapshot of the credential's public key (the `PasskeyCredential` row holds the same key).
 */
export const passkeyApprovalEvidence = z.object({
  version: z.literal(APPROVAL_CHALLENGE_VERSION),
  derivation: z.string(),
  proposalId: z.string(),
  proposalHash: z.string(),
  nonce: z.string(),
  challenge: z.string(),
  rpID: z.string(),
  origin: z.string(),
  credentialId: z.string(),
  publicKey: z.string(),
  counter: z.number().int().min(0),
  userVerified: z.boolean(),
  verifiedAt: z.string(),
  response: authenticationResponseInput,
});
export type PasskeyApprovalEvidence = z.infer<typeof passkeyApprovalEvidence>;

export const APPROVAL_CHALLENGE_DERIVATION =
  'challenge = nonce || SHA-256(UTF-8("approval-v1:" + proposalId + ":" + proposalHash + ":" + base64url(nonce))); nonce = 16 random bytes';

export type PasskeyApprovalCheck = {
  /** The stored `Approval.passkeyAssertion`. */
  evidence: unknown;
  /** The proposal the approval claims to approve: its id and the hash recorded for it. */
  proposalId: string;
  proposalHash: string;
  /** The credential's COSE public key, base64url (`PasskeyCredential.publicKey`), and optionally its id. */
  publicKey: string;
  credentialId?: string;
  /** The relying party the deployment expects (its RP ID and origin). */
  rpID: string;
  origin: string;
};

export type PasskeyApprovalVerdict =
  | { verified: true }
  | {
      verified: false;
      reason:
        | "malformed_evidence"
        | "unsupported_version"
        | "challenge_mismatch"
        | "credential_mismatch"
        | "signature_invalid";
      detail?: string;
    };

/**
 * Checks, without a database or network, that a stored passkey approval is the reviewer's signature over
 * exactly `proposalId` + `proposalHash`: the challenge in the signed clientDataJSON must equal the one
 * re-derived from them and the stored nonce, and the signature over authenticatorData ‖ SHA-256(clientDataJSON)
 * must verify with `publicKey`, for this RP ID and origin, with user verification. The signature counter is
 * not judged here (it only orders uses of one authenticator; the server checked it when it accepted the approval).
 */
export async function verifyPasskeyApproval(check: PasskeyApprovalCheck): Promise<PasskeyApprovalVerdict> {
  const version = (check.evidence as { version?: unknown } | null)?.version;
  if (version !== undefined && version !== APPROVAL_CHALLENGE_VERSION)
    return {
      verified: false,
      reason: "unsupported_version",
      detail: typeof version === "string" ? version : JSON.stringify(version),
    };
  const parsed = passkeyApprovalEvidence.safeParse(check.evidence);
  if (!parsed.success)
    return { verified: false, reason: "malformed_evidence", detail: parsed.error.issues[0]!.message }; // a failed parse has an issue
  const evidence = parsed.data;

  let expected: string;
  try {
    expected = deriveApprovalChallenge({
      proposalId: check.proposalId,
      proposalHash: check.proposalHash,
      nonce: evidence.nonce,
    });
  } catch (error) {
    return {
      verified: false,
      reason: "challenge_mismatch",
      detail: error instanceof Error ? error.message : String(error),
    };
  }
  const signedChallenge = challengeOf(evidence.response.response.clientDataJSON);
  if (signedChallenge !== expected)
    return {
      verified: false,
      reason: "challenge_mismatch",
      detail: "the signed challenge is not derived from this proposal id and hash",
    };

  if (check.credentialId !== undefined && evidence.response.id !== check.credentialId)
    return { verified: false, reason: "credential_mismatch" };

  let publicKey: Uint8Array<ArrayBuffer>;
  try {
    publicKey = new Uint8Array(Buffer.from(check.publicKey, "base64url"));
  } catch {
    return { verified: false, reason: "malformed_evidence", detail: "public key is not base64url" };
  }
  try {
    const result = await verifyAuthenticationResponse({
      response: evidence.response,
      expectedChallenge: expected,
      expectedOrigin: check.origin,
      expectedRPID: check.rpID,
      // Counter 0: accept any stored counter value; replay is the server's concern at approval time.
      credential: { id: evidence.response.id, publicKey, counter: 0 },
      requireUserVerification: true,
    });
    return result.verified ? { verified: true } : { verified: false, reason: "signature_invalid" };
  } catch (error) {
    return {
      verified: false,
      reason: "signature_invalid",
      detail: error instanceof Error ? error.message : String(error),
    };
  }
}

/** The `challenge` member of a base64url clientDataJSON, or null. */
export function challengeOf(clientDataJSON: string): string | null {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, "base64url").toString("utf8")) as { challenge?: unknown };
    return typeof data.challenge === "string" ? data.challenge : null;
  } catch {
    return null;
  }
}
