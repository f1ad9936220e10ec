import { describe, expect, it } from "vitest";
import { createSoftAuthenticator } from "@/tests/support/soft-authenticator";
import { deriveApprovalChallenge } from "./passkey-challenge";
import {
  APPROVAL_CHALLENGE_DERIVATION,
  verifyPasskeyApproval,
  type PasskeyApprovalEvidence,
} from "./verify-passkey-approval";

const rp = { rpID: "localhost", origin: "http://localhost:3100" };
const proposalId = "0b6f2c1e-7d4a-4f3b-9c8e-2a1d5e6f7a8b";
const proposalHash = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
const nonce = "AAECAwQFBgcICQoLDA0ODw";

function approvalEvidence(opts: { userVerified?: boolean; signedHash?: string } = {}) {
  const authenticator = createSoftAuthenticator(rp);
  const challenge = deriveApprovalChallenge({ proposalId, proposalHash: opts.signedHash ?? proposalHash, nonce });
  const response = authenticator.authenticate(challenge, { userVerified: opts.userVerified });
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
    counter: 1,
    userVerified: true,
    verifiedAt: new Date().toISOString(),
    response: { ...response, clientExtensionResults: {} },
  };
  return { evidence, authenticator };
}

describe("verifyPasskeyApproval (offline)", () => {
  it("verifies a real ES256 assertion over the challenge derived from the proposal id and hash", async () => {
    const { evidence, authenticator } = approvalEvidence();
    expect(
      await verifyPasskeyApproval({
        evidence,
        proposalId,
        proposalHash,
        publicKey: authenticator.cosePublicKey,
        credentialId: authenticator.credentialId,
        ...rp,
      }),
    ).toEqual({ verified: true });
  });

  it("rejects a changed proposal hash (and a changed proposal id)", async () => {
    const { evidence, authenticator } = approvalEvidence();
    const changed = proposalHash.replace(/^9/, "8");
    const r = await verifyPasskeyApproval({
      evidence,
      proposalId,
      proposalHash: changed,
      publicKey: authenticator.cosePublicKey,
      ...rp,
    });
    expect(r).toMatchObject({ verified: false, reason: "challenge_mismatch" });
    const otherId = await verifyPasskeyApproval({
      evidence,
      proposalId: proposalId.replace(/^0/, "1"),
      proposalHash,
      publicKey: authenticator.cosePublicKey,
      ...rp,
    });
    expect(otherId).toMatchObject({ verified: false, reason: "challenge_mismatch" });
  });

  it("rejects evidence whose stored fields were edited to claim another hash: the signed challenge decides", async () => {
    const { evidence, authenticator } = approvalEvidence({ signedHash: "0".repeat(64) });
    const r = await verifyPasskeyApproval({
      evidence,
      proposalId,
      proposalHash,
      publicKey: authenticator.cosePublicKey,
      ...rp,
    });
    expect(r).toMatchObject({ verified: false, reason: "challenge_mismatch" });
  });

  it("rejects another key, a tampered signature, a foreign RP / origin, missing user verification and junk", async () => {
    const { evidence, authenticator } = approvalEvidence();
    const other = createSoftAuthenticator(rp);
    expect(
      await verifyPasskeyApproval({ evidence, proposalId, proposalHash, publicKey: other.cosePublicKey, ...rp }),
    ).toMatchObject({
      verified: false,
      reason: "signature_invalid",
    });
    const sig = Buffer.from(evidence.response.response.signature, "base64url");
    sig.writeUInt8(sig.readUInt8(sig.length - 1) ^ 1, sig.length - 1);
    const tampered = {
      ...evidence,
      response: {
        ...evidence.response,
        response: { ...evidence.response.response, signature: sig.toString("base64url") },
      },
    };
    expect(
      await verifyPasskeyApproval({
        evidence: tampered,
        proposalId,
        proposalHash,
        publicKey: authenticator.cosePublicKey,
        ...rp,
      }),
    ).toMatchObject({
      verified: false,
      reason: "signature_invalid",
    });
    expect(
      await verifyPasskeyApproval({
        evidence,
        proposalId,
        proposalHash,
        publicKey: authenticator.cosePublicKey,
        rpID: "evil.test",
        origin: rp.origin,
      }),
    ).toMatchObject({ verified: false, reason: "signature_invalid" });
    expect(
      await verifyPasskeyApproval({
        evidence,
        proposalId,
        proposalHash,
        publicKey: authenticator.cosePublicKey,
        rpID: rp.rpID,
        origin: "https://evil.test",
      }),
    ).toMatchObject({ verified: false, reason: "signature_invalid" });
    expect(
      await verifyPasskeyApproval({
        evidence,
        proposalId,
        proposalHash,
        publicKey: authenticator.cosePublicKey,
        credentialId: other.credentialId,
        ...rp,
      }),
    ).toMatchObject({ verified: false, reason: "credential_mismatch" });
    const noUv = approvalEvidence({ userVerified: false });
    expect(
      await verifyPasskeyApproval({
        evidence: noUv.evidence,
        proposalId,
        proposalHash,
        publicKey: noUv.authenticator.cosePublicKey,
        ...rp,
      }),
    ).toMatchObject({ verified: false, reason: "signature_invalid" });
    expect(
      await verifyPasskeyApproval({
        evidence: { version: "approval-v9" },
        proposalId,
        proposalHash,
        publicKey: authenticator.cosePublicKey,
        ...rp,
      }),
    ).toMatchObject({ verified: false, reason: "unsupported_version" });
    expect(
      await verifyPasskeyApproval({
        evidence: { ...evidence, response: undefined },
        proposalId,
        proposalHash,
        publicKey: authenticator.cosePublicKey,
        ...rp,
      }),
    ).toMatchObject({ verified: false, reason: "malformed_evidence" });
  });
});
