// Every refusal of the approval-challenge derivation, at its exact boundary (found unchecked by mutation
// testing, npm run test:mutation): the challenge must be unambiguous and only ever match one proposal.
import { describe, expect, it } from "vitest";
import {
  APPROVAL_NONCE_BYTES,
  deriveApprovalChallenge,
  isApprovalChallengeFor,
  nonceOfApprovalChallenge,
} from "./passkey-challenge";

const proposalId = "0b6f2c1e-7d4a-4f3b-9c8e-2a1d5e6f7a8b";
const proposalHash = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
const nonce = "AAECAwQFBgcICQoLDA0ODw";
const CHALLENGE = "AAECAwQFBgcICQoLDA0OD2kB9vqb58WGXYeSLepjhIAyinAlSdn_gm-5JWQwU1Ff";
const derive = (over: Partial<{ proposalId: string; proposalHash: string; nonce: string }>) =>
  deriveApprovalChallenge({ proposalId, proposalHash, nonce, ...over });

describe("deriveApprovalChallenge refuses", () => {
  it("any proposal id that is not a lowercase canonical UUID, whatever the group", () => {
    expect(APPROVAL_NONCE_BYTES).toBe(16);
    expect(derive({})).toBe(CHALLENGE);
    const groups = proposalId.split("-");
    const variants = groups.flatMap((_, i) => [
      groups.map((g, j) => (j === i ? g.slice(1) : g)).join("-"),
      groups.map((g, j) => (j === i ? `${g}0` : g)).join("-"),
      groups.map((g, j) => (j === i ? `g${g.slice(1)}` : g)).join("-"),
    ]);
    for (const bad of [
      ...variants,
      ` ${proposalId}`,
      `${proposalId} `,
      `x${proposalId}`,
      `${proposalId}x`,
      proposalId.replaceAll("-", "_"),
      proposalId.toUpperCase(),
    ]) {
      expect(() => derive({ proposalId: bad }), bad).toThrow("proposalId must be a lowercase UUID");
    }
  });
  it("any hash but 64 lowercase hex characters", () => {
    for (const bad of [
      proposalHash.slice(1),
      `${proposalHash}0`,
      `x${proposalHash}`,
      `${proposalHash}x`,
      `g${proposalHash.slice(1)}`,
      proposalHash.toUpperCase(),
    ]) {
      expect(() => derive({ proposalHash: bad }), bad).toThrow("proposalHash must be 64 lowercase hex characters");
    }
  });
  it("a nonce that is not base64url", () => {
    for (const bad of [
      "",
      `${nonce}=`,
      `=${nonce}`,
      "AAECAwQFBgcICQoLDA0OD+",
      "AAECAwQFBgcICQoLDA0OD/",
      "AAECAwQF BgcICQoLDA0ODw",
    ]) {
      expect(() => derive({ nonce: bad }), bad).toThrow("nonce must be base64url");
    }
  });
  it("a nonce of another length, or in a non-canonical spelling of the same bytes", () => {
    const of = (n: number) => Buffer.alloc(n, 7).toString("base64url");
    expect(() => derive({ nonce: of(15) })).toThrow("nonce must be 16 bytes, canonical base64url");
    expect(() => derive({ nonce: of(17) })).toThrow("nonce must be 16 bytes, canonical base64url");
    expect(derive({ nonce: of(16) })).toMatch(/^Bw/);
    // "…ODx" decodes to the same 16 bytes as "…ODw" (the last character's spare bits differ).
    expect(Buffer.from("AAECAwQFBgcICQoLDA0ODx", "base64url").toString("base64url")).toBe(nonce);
    expect(() => derive({ nonce: "AAECAwQFBgcICQoLDA0ODx" })).toThrow("nonce must be 16 bytes, canonical base64url");
  });
});

describe("nonceOfApprovalChallenge", () => {
  it("reads the first 16 bytes of a 48-byte challenge only", () => {
    expect(nonceOfApprovalChallenge(CHALLENGE)).toBe(nonce);
    expect(nonceOfApprovalChallenge(CHALLENGE.slice(0, -1))).toBeNull(); // 47 bytes
    expect(nonceOfApprovalChallenge(Buffer.alloc(49).toString("base64url"))).toBeNull();
    expect(nonceOfApprovalChallenge(Buffer.alloc(48, 1).toString("base64url"))).toBe(
      Buffer.alloc(16, 1).toString("base64url"),
    );
    expect(nonceOfApprovalChallenge(`${CHALLENGE}=`)).toBeNull();
    expect(nonceOfApprovalChallenge(`=${CHALLENGE}`)).toBeNull();
    expect(nonceOfApprovalChallenge("")).toBeNull();
  });
});

describe("isApprovalChallengeFor", () => {
  it("is false, never a throw, for a longer spelling, a bad proposal or a foreign challenge", () => {
    expect(isApprovalChallengeFor(CHALLENGE, { proposalId, proposalHash })).toBe(true);
    // One more character still decodes to 48 bytes: the texts differ in length.
    expect(isApprovalChallengeFor(`${CHALLENGE}A`, { proposalId, proposalHash })).toBe(false);
    expect(isApprovalChallengeFor(CHALLENGE, { proposalId: proposalId.toUpperCase(), proposalHash })).toBe(false);
    expect(isApprovalChallengeFor(Buffer.alloc(48).toString("base64url"), { proposalId, proposalHash })).toBe(false);
    expect(isApprovalChallengeFor(`${CHALLENGE.slice(0, -1)}e`, { proposalId, proposalHash })).toBe(false);
  });
});
