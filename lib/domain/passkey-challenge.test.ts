import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { deriveApprovalChallenge, isApprovalChallengeFor, nonceOfApprovalChallenge } from "./passkey-challenge";

const proposalId = "0b6f2c1e-7d4a-4f3b-9c8e-2a1d5e6f7a8b";
const proposalHash = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
const nonce = "AAECAwQFBgcICQoLDA0ODw"; // bytes 00 01 … 0f

describe("approval challenge (v1)", () => {
  it("matches the fixed vector: nonce ‖ SHA-256('approval-v1:' id ':' hash ':' nonce)", () => {
    // Computed independently (Python hashlib): sha256 = 6901f6fa…3053515f.
    const challenge = deriveApprovalChallenge({ proposalId, proposalHash, nonce });
    expect(challenge).toBe("AAECAwQFBgcICQoLDA0OD2kB9vqb58WGXYeSLepjhIAyinAlSdn_gm-5JWQwU1Ff");
    const bytes = Buffer.from(challenge, "base64url");
    expect(bytes.length).toBe(48);
    expect(bytes.subarray(16).toString("hex")).toBe("6901f6fa9be7c5865d87922dea638480328a702549d9ff826fb925643053515f");
    expect(bytes.subarray(16)).toEqual(
      createHash("sha256").update(`approval-v1:${proposalId}:${proposalHash}:${nonce}`).digest(),
    );
  });

  it("carries its nonce and commits to exactly one proposal id and hash", () => {
    const challenge = deriveApprovalChallenge({ proposalId, proposalHash, nonce });
    expect(nonceOfApprovalChallenge(challenge)).toBe(nonce);
    expect(isApprovalChallengeFor(challenge, { proposalId, proposalHash })).toBe(true);
    const otherHash = proposalHash.replace(/^9/, "8");
    expect(isApprovalChallengeFor(challenge, { proposalId, proposalHash: otherHash })).toBe(false);
    expect(isApprovalChallengeFor(challenge, { proposalId: proposalId.replace(/^0/, "1"), proposalHash })).toBe(false);
    expect(deriveApprovalChallenge({ proposalId, proposalHash: otherHash, nonce })).not.toBe(challenge);
  });

  it("differs for every nonce and refuses malformed inputs", () => {
    const other = deriveApprovalChallenge({ proposalId, proposalHash, nonce: "AQECAwQFBgcICQoLDA0ODw" });
    expect(other).not.toBe(deriveApprovalChallenge({ proposalId, proposalHash, nonce }));
    expect(() => deriveApprovalChallenge({ proposalId: proposalId.toUpperCase(), proposalHash, nonce })).toThrow();
    expect(() => deriveApprovalChallenge({ proposalId, proposalHash: proposalHash.slice(1), nonce })).toThrow();
    expect(() => deriveApprovalChallenge({ proposalId, proposalHash, nonce: "AAEC" })).toThrow();
    expect(nonceOfApprovalChallenge("not a challenge")).toBeNull();
    expect(isApprovalChallengeFor("AAAA", { proposalId, proposalHash })).toBe(false);
  });
});
