// Each refusal of the offline passkey-approval verifier with its reason and detail (found unchecked by
// mutation testing, npm run test:mutation). Stored evidence is untrusted input: no shape of it may throw.
import { describe, expect, it } from "vitest";
import { createSoftAuthenticator } from "@/tests/support/soft-authenticator";
import { deriveApprovalChallenge } from "./passkey-challenge";
import {
  APPROVAL_CHALLENGE_DERIVATION,
  challengeOf,
  verifyPasskeyApproval,
  type PasskeyApprovalEvidence,
} from "./verify-passkey-approval";

const rp = { rpID: "localhost", origin: "http://localhost:3100" };
const proposalId = "0b6f2c1e-7d4a-4f3b-9c8e-2a1d5e6f7a8b";
const proposalHash = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
const nonce = "AAECAwQFBgcICQoLDA0ODw";
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");

function signed() {
  const authenticator = createSoftAuthenticator(rp);
  const challenge = deriveApprovalChallenge({ proposalId, proposalHash, nonce });
  const response = authenticator.authenticate(challenge);
  const evidence: PasskeyApprovalEvidence = {
    version: "approval-v1",
    derivation: APPROVAL_CHALLENGE_DERIVATION,
    proposalId,
    proposalHash,
    nonce,
    challenge,
    ...rp,
    credentialId: authenticator.credentialId,
    publicKey: authenticator.cosePublicKey,
    counter: 0,
    userVerified: true,
    verifiedAt: "2026-01-01T00:00:00.000Z",
    response: { ...response, clientExtensionResults: {} },
  };
  const check = { evidence, proposalId, proposalHash, publicKey: authenticator.cosePublicKey, ...rp };
  return { evidence, authenticator, check };
}

describe("verifyPasskeyApproval: refusals with their detail", () => {
  it("verifies with and without the credential id to compare", async () => {
    const { check, authenticator } = signed();
    expect(await verifyPasskeyApproval(check)).toEqual({ verified: true });
    expect(await verifyPasskeyApproval({ ...check, credentialId: authenticator.credentialId })).toEqual({
      verified: true,
    });
  });

  it("names an unsupported version as stored, quoting a non-string one", async () => {
    const { check, evidence } = signed();
    expect(await verifyPasskeyApproval({ ...check, evidence: { ...evidence, version: "approval-v2" } })).toStrictEqual({
      verified: false,
      reason: "unsupported_version",
      detail: "approval-v2",
    });
    expect(await verifyPasskeyApproval({ ...check, evidence: { ...evidence, version: { v: 1 } } })).toStrictEqual({
      verified: false,
      reason: "unsupported_version",
      detail: '{"v":1}',
    });
  });

  it("calls null, a missing version or a broken shape malformed, with zod's first message", async () => {
    const { check, evidence } = signed();
    for (const bad of [null, undefined, {}, "approval-v1", { ...evidence, counter: -1 }]) {
      const r = await verifyPasskeyApproval({ ...check, evidence: bad });
      expect(r).toMatchObject({ verified: false, reason: "malformed_evidence" });
      expect(r.verified === false && typeof r.detail).toBe("string");
    }
  });

  it("a proposal id that cannot have been signed is a challenge mismatch naming the rule", async () => {
    const { check } = signed();
    expect(await verifyPasskeyApproval({ ...check, proposalId: proposalId.toUpperCase() })).toStrictEqual({
      verified: false,
      reason: "challenge_mismatch",
      detail: "proposalId must be a lowercase UUID",
    });
    expect(await verifyPasskeyApproval({ ...check, proposalHash: "8" + proposalHash.slice(1) })).toStrictEqual({
      verified: false,
      reason: "challenge_mismatch",
      detail: "the signed challenge is not derived from this proposal id and hash",
    });
  });

  it("a credential id that differs from the assertion's is refused before the signature", async () => {
    const { check } = signed();
    expect(await verifyPasskeyApproval({ ...check, credentialId: "other" })).toStrictEqual({
      verified: false,
      reason: "credential_mismatch",
    });
  });

  it("a stored public key that is not text is malformed, not a throw", async () => {
    const { check } = signed();
    expect(await verifyPasskeyApproval({ ...check, publicKey: 42 as unknown as string })).toStrictEqual({
      verified: false,
      reason: "malformed_evidence",
      detail: "public key is not base64url",
    });
  });

  it("a signature that does not verify carries the library's message", async () => {
    const { check } = signed();
    const r = await verifyPasskeyApproval({ ...check, publicKey: "AAAA" });
    expect(r).toMatchObject({ verified: false, reason: "signature_invalid" });
    expect(r.verified === false && typeof r.detail).toBe("string");
  });
});

describe("challengeOf", () => {
  it("reads the challenge of clientDataJSON, or null", () => {
    expect(challengeOf(b64({ type: "webauthn.get", challenge: "abc" }))).toBe("abc");
    expect(challengeOf(b64({ challenge: 5 }))).toBeNull();
    expect(challengeOf(b64({}))).toBeNull();
    expect(challengeOf(b64(null))).toBeNull();
    expect(challengeOf("not json")).toBeNull();
  });
});
