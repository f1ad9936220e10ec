// Passkeys against the real database: registration and passkey approvals go through the real use cases,
// answered by a software authenticator (node:crypto P-256) exactly as a browser's authenticator would.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/client";
import type { Actor } from "@/lib/server/auth/actor";
import { webAuthnRelyingParty } from "@/lib/server/env";
import { approveProposal } from "@/lib/server/proposals/approve-proposal";
import { getProposal } from "@/lib/server/proposals/get-proposal";
import { createRegistrationOptions } from "@/lib/server/passkeys/create-registration-options";
import { registerPasskey } from "@/lib/server/passkeys/register-passkey";
import { createApprovalOptions } from "@/lib/server/passkeys/create-approval-options";
import { listPasskeys } from "@/lib/server/passkeys/list-passkeys";
import { deriveApprovalChallenge, nonceOfApprovalChallenge } from "@/lib/domain/passkey-challenge";
import { verifyPasskeyApproval } from "@/lib/domain/verify-passkey-approval";
import { createSoftAuthenticator, type SoftAuthenticator } from "../support/soft-authenticator";
import { actorFor, staffOf } from "../support/actors";
import { ES, US, ana, john, anthropicCall, headersFor, send, tokenFor, webKey, freshTrace } from "./gateway-support";
import { createPaidOrder } from "../../scripts/lib/fixtures";

async function prepare(amountMinor: number, customer = ana, tenant = ES) {
  const t = await db().tenant.findUniqueOrThrow({ where: { slug: tenant } });
  const { number } = await createPaidOrder(db(), t, { customerId: customer, amountMinor, prefix: "PK" });
  const a = await send(
    anthropicCall("prepare_refund", { order_id: number, reason: "damaged_item" }),
    headersFor({ key: webKey(tenant), token: await tokenFor(tenant, customer), trace: freshTrace() }),
  );
  expect(a.content.code).toBe("approval_required");
  const result = a.content.result as { proposal_id?: string; id?: string };
  return db().proposal.findUniqueOrThrow({ where: { id: result.proposal_id ?? result.id! } });
}

/** Registers a new software passkey for the actor through the real use cases. */
async function enroll(actor: Actor, name = "Test key"): Promise<SoftAuthenticator> {
  const authenticator = createSoftAuthenticator(webAuthnRelyingParty());
  const options = await createRegistrationOptions(actor);
  await registerPasskey(actor, { response: authenticator.register(options.challenge), name });
  return authenticator;
}

const approvals = (proposalId: string) => db().approval.count({ where: { proposalId } });
const challengeRow = (challenge: string) => db().webAuthnChallenge.findFirstOrThrow({ where: { challenge } });

let reviewer: Actor;
let reviewerKey: SoftAuthenticator;

beforeAll(async () => {
  reviewer = await actorFor(staffOf(ES, "reviewer").email);
  reviewerKey = await enroll(reviewer, "Lucía's laptop");
});

describe("registration", () => {
  it("stores the credential's COSE public key for its owner, with an audit event in the same transaction", async () => {
    const row = await db().passkeyCredential.findUniqueOrThrow({ where: { id: reviewerKey.credentialId } });
    expect(row).toMatchObject({
      staffUserId: reviewer.userId,
      tenantId: reviewer.tenantId,
      publicKey: reviewerKey.cosePublicKey,
      name: "Lucía's laptop",
      transports: ["internal"],
    });
    const events = await db().auditEvent.findMany({
      where: { action: "auth:passkey_register", actorId: reviewer.userId },
    });
    expect(events.map((e) => e.outcome)).toEqual(["ok"]);
    expect(events[0]!.data).toMatchObject({ passkeyId: reviewerKey.credentialId });
    expect((await listPasskeys(reviewer)).map((p) => p.id)).toEqual([reviewerKey.credentialId]);
    // Another staff member sees none of it.
    expect(await listPasskeys(await actorFor(staffOf(ES, "reviewer", 1).email))).toEqual([]);
  });

  it("any signed-in staff member may register; the challenge is single use", async () => {
    const auditor = await actorFor(staffOf(ES, "auditor").email);
    const authenticator = createSoftAuthenticator(webAuthnRelyingParty());
    const options = await createRegistrationOptions(auditor);
    const response = authenticator.register(options.challenge);
    await registerPasskey(auditor, { response });
    const again = createSoftAuthenticator(webAuthnRelyingParty()).register(options.challenge);
    await expect(registerPasskey(auditor, { response: again })).rejects.toMatchObject({
      code: "permission_denied",
      details: { reason: "challenge_invalid" },
    });
    expect(await db().passkeyCredential.count({ where: { staffUserId: auditor.userId } })).toBe(1);
  });

  it("refuses an expired challenge, another user's challenge, and a wrong origin", async () => {
    const ops = await actorFor(staffOf(ES, "ops").email);
    const authenticator = createSoftAuthenticator(webAuthnRelyingParty());
    const expired = await createRegistrationOptions(ops);
    await db().webAuthnChallenge.updateMany({
      where: { challenge: expired.challenge },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    await expect(registerPasskey(ops, { response: authenticator.register(expired.challenge) })).rejects.toMatchObject({
      code: "permission_denied",
    });

    const theirs = await createRegistrationOptions(reviewer);
    await expect(registerPasskey(ops, { response: authenticator.register(theirs.challenge) })).rejects.toMatchObject({
      code: "permission_denied",
    });

    const foreign = await createRegistrationOptions(ops);
    await expect(
      registerPasskey(ops, { response: authenticator.register(foreign.challenge, { origin: "https://evil.test" }) }),
    ).rejects.toMatchObject({
      code: "permission_denied",
      details: { reason: "registration_failed" },
    });
    expect(await db().passkeyCredential.count({ where: { staffUserId: ops.userId } })).toBe(0);
    await expect(registerPasskey(ops, { response: { id: "x" } })).rejects.toMatchObject({ code: "invalid_arguments" });
  });
});

describe("approval options", () => {
  it("derive the challenge from the proposal's id and hash with a stored nonce, for the reviewer's own credentials", async () => {
    const p = await prepare(1_111);
    const options = await createApprovalOptions(reviewer, { proposalId: p.id, hash: p.hash });
    const nonce = nonceOfApprovalChallenge(options.challenge)!;
    expect(options.challenge).toBe(deriveApprovalChallenge({ proposalId: p.id, proposalHash: p.hash, nonce }));
    expect(options.allowCredentials?.map((c) => c.id)).toEqual([reviewerKey.credentialId]);
    expect(options.userVerification).toBe("required");
    expect(options.rpId).toBe(webAuthnRelyingParty().rpID);
    const row = await challengeRow(options.challenge);
    expect(row).toMatchObject({ staffUserId: reviewer.userId, purpose: "approve", proposalId: p.id, usedAt: null });
    expect(row.expiresAt.getTime()).toBeGreaterThan(Date.now());
    // A second request gets a fresh nonce, still bound to the same proposal.
    const again = await createApprovalOptions(reviewer, { proposalId: p.id, hash: p.hash });
    expect(again.challenge).not.toBe(options.challenge);
    expect(again.challenge).toBe(
      deriveApprovalChallenge({
        proposalId: p.id,
        proposalHash: p.hash,
        nonce: nonceOfApprovalChallenge(again.challenge)!,
      }),
    );
  });

  it("are refused to auditors, ops, other tenants, reviewers without passkeys, and for another hash", async () => {
    const p = await prepare(1_212);
    const body = { proposalId: p.id, hash: p.hash };
    await expect(createApprovalOptions(await actorFor(staffOf(ES, "auditor").email), body)).rejects.toMatchObject({
      code: "permission_denied",
    });
    await expect(createApprovalOptions(await actorFor(staffOf(ES, "ops").email), body)).rejects.toMatchObject({
      code: "permission_denied",
    });
    const usReviewer = await actorFor(staffOf(US, "reviewer").email);
    await enroll(usReviewer);
    await expect(createApprovalOptions(usReviewer, body)).rejects.toMatchObject({ code: "not_found" });
    await expect(createApprovalOptions(await actorFor(staffOf(ES, "reviewer", 1).email), body)).rejects.toMatchObject({
      code: "permission_denied",
      details: { reason: "no_passkeys" },
    });
    await expect(createApprovalOptions(reviewer, { ...body, hash: "f".repeat(64) })).rejects.toMatchObject({
      code: "invalid_arguments",
    });
    await expect(createApprovalOptions(reviewer, { proposalId: "nope", hash: p.hash })).rejects.toMatchObject({
      code: "invalid_arguments",
    });
    expect(await db().webAuthnChallenge.count({ where: { proposalId: p.id } })).toBe(0);
  });
});

describe("passkey approval", () => {
  it("approves a stale session, stores an assertion that verifies offline against the stored key, and a changed hash fails", async () => {
    const p = await prepare(2_345);
    const stale = await actorFor(reviewer.email, { authAgoSeconds: 60 * 60 });
    await expect(approveProposal(stale, { proposalId: p.id, hash: p.hash })).rejects.toMatchObject({
      details: { reason: "step_up_required" },
    });

    const options = await createApprovalOptions(stale, { proposalId: p.id, hash: p.hash });
    const response = reviewerKey.authenticate(options.challenge);
    const before = Date.now();
    const r = await approveProposal(stale, { proposalId: p.id, hash: p.hash, stepUp: { method: "passkey", response } });
    expect(r).toMatchObject({ status: "approved", approvals: 1 });

    const approval = await db().approval.findFirstOrThrow({ where: { proposalId: p.id } });
    expect(approval).toMatchObject({
      authMethod: "passkey",
      passkeyCredentialId: reviewerKey.credentialId,
      proposalHash: p.hash,
    });
    expect(approval.authTime.getTime()).toBeGreaterThanOrEqual(before - 1000);
    const evidence = approval.passkeyAssertion as Record<string, unknown>;
    expect(evidence).toMatchObject({
      version: "approval-v1",
      proposalId: p.id,
      proposalHash: p.hash,
      nonce: nonceOfApprovalChallenge(options.challenge),
      challenge: options.challenge,
    });
    expect((evidence.response as { response: unknown }).response).toEqual(response.response);

    const credential = await db().passkeyCredential.findUniqueOrThrow({ where: { id: approval.passkeyCredentialId! } });
    const rp = webAuthnRelyingParty();
    const check = {
      evidence,
      proposalId: p.id,
      publicKey: credential.publicKey,
      credentialId: credential.id,
      rpID: rp.rpID,
      origin: rp.origin,
    };
    expect(await verifyPasskeyApproval({ ...check, proposalHash: approval.proposalHash })).toEqual({ verified: true });
    expect(
      await verifyPasskeyApproval({ ...check, proposalHash: p.hash.replace(/^./, (c) => (c === "0" ? "1" : "0")) }),
    ).toMatchObject({
      verified: false,
      reason: "challenge_mismatch",
    });

    expect(credential.counter).toBe(reviewerKey.counter);
    expect(credential.lastUsedAt).not.toBeNull();
    expect((await challengeRow(options.challenge)).usedAt).not.toBeNull();
    const events = await db().auditEvent.findMany({
      where: { proposalId: p.id, action: "proposal:approve" },
      orderBy: { pos: "asc" },
    });
    expect(events.map((e) => [e.outcome, e.authMethod])).toEqual([
      ["permission_denied", "password"],
      ["ok", "passkey"],
    ]);
    expect(events[1]!.data).toMatchObject({ passkeyId: reviewerKey.credentialId });
    // The detail page knows the reviewer has a passkey.
    expect((await getProposal(await actorFor(reviewer.email), p.id)).viewer.hasPasskeys).toBe(true);
  });

  it("refuses a replayed challenge: one attempt per challenge, even after a failed one", async () => {
    const p = await prepare(3_456);
    const options = await createApprovalOptions(reviewer, { proposalId: p.id, hash: p.hash });
    const response = reviewerKey.authenticate(options.challenge);
    const sig = Buffer.from(response.response.signature, "base64url");
    sig.writeUInt8(sig.readUInt8(sig.length - 1) ^ 1, sig.length - 1);
    const forged = { ...response, response: { ...response.response, signature: sig.toString("base64url") } };
    await expect(
      approveProposal(reviewer, { proposalId: p.id, hash: p.hash, stepUp: { method: "passkey", response: forged } }),
    ).rejects.toMatchObject({
      code: "permission_denied",
      details: { reason: "step_up_failed", passkey: "assertion_invalid" },
    });
    await expect(
      approveProposal(reviewer, { proposalId: p.id, hash: p.hash, stepUp: { method: "passkey", response } }),
    ).rejects.toMatchObject({
      details: { reason: "step_up_failed", passkey: "challenge_used" },
    });
    expect(await approvals(p.id)).toBe(0);
    expect((await db().proposal.findUniqueOrThrow({ where: { id: p.id } })).status).toBe("pending_approval");
  });

  it("refuses an expired challenge, another proposal's challenge, another reviewer's answer and a foreign key", async () => {
    const p = await prepare(4_567);
    const q = await prepare(4_568);
    // Expired.
    const expired = await createApprovalOptions(reviewer, { proposalId: p.id, hash: p.hash });
    await db().webAuthnChallenge.updateMany({
      where: { challenge: expired.challenge },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    await expect(
      approveProposal(reviewer, {
        proposalId: p.id,
        hash: p.hash,
        stepUp: { method: "passkey", response: reviewerKey.authenticate(expired.challenge) },
      }),
    ).rejects.toMatchObject({
      details: { passkey: "challenge_expired" },
    });
    // A signature over proposal q's challenge does not approve p.
    const forQ = await createApprovalOptions(reviewer, { proposalId: q.id, hash: q.hash });
    await expect(
      approveProposal(reviewer, {
        proposalId: p.id,
        hash: p.hash,
        stepUp: { method: "passkey", response: reviewerKey.authenticate(forQ.challenge) },
      }),
    ).rejects.toMatchObject({
      details: { passkey: "challenge_unknown" },
    });
    // Another reviewer presenting Lucía's answer: the challenge is not theirs.
    const javier = await actorFor(staffOf(ES, "reviewer", 1).email);
    const javierKey = await enroll(javier);
    const lucia = await createApprovalOptions(reviewer, { proposalId: p.id, hash: p.hash });
    await expect(
      approveProposal(javier, {
        proposalId: p.id,
        hash: p.hash,
        stepUp: { method: "passkey", response: reviewerKey.authenticate(lucia.challenge) },
      }),
    ).rejects.toMatchObject({
      details: { passkey: "challenge_unknown" },
    });
    // Lucía answering her own challenge with a key registered to Javier.
    await expect(
      approveProposal(reviewer, {
        proposalId: p.id,
        hash: p.hash,
        stepUp: { method: "passkey", response: javierKey.authenticate(lucia.challenge) },
      }),
    ).rejects.toMatchObject({
      details: { passkey: "unknown_credential" },
    });
    // A key that nobody registered.
    const own = await createApprovalOptions(reviewer, { proposalId: p.id, hash: p.hash });
    const stranger = createSoftAuthenticator(webAuthnRelyingParty());
    await expect(
      approveProposal(reviewer, {
        proposalId: p.id,
        hash: p.hash,
        stepUp: { method: "passkey", response: stranger.authenticate(own.challenge) },
      }),
    ).rejects.toMatchObject({
      details: { passkey: "unknown_credential" },
    });
    expect(await approvals(p.id)).toBe(0);
    expect(await approvals(q.id)).toBe(0);
  });

  it("refuses an assertion without user verification or from a cloned authenticator (counter went backwards)", async () => {
    const p = await prepare(5_678);
    const noUv = await createApprovalOptions(reviewer, { proposalId: p.id, hash: p.hash });
    await expect(
      approveProposal(reviewer, {
        proposalId: p.id,
        hash: p.hash,
        stepUp: { method: "passkey", response: reviewerKey.authenticate(noUv.challenge, { userVerified: false }) },
      }),
    ).rejects.toMatchObject({
      details: { passkey: "assertion_invalid" },
    });
    const cloned = await createApprovalOptions(reviewer, { proposalId: p.id, hash: p.hash });
    // The server has seen signature counter 10; a clone answers with 1.
    await db().passkeyCredential.update({ where: { id: reviewerKey.credentialId }, data: { counter: 10 } });
    reviewerKey.counter = 0;
    const response = reviewerKey.authenticate(cloned.challenge);
    reviewerKey.counter = 10;
    await expect(
      approveProposal(reviewer, { proposalId: p.id, hash: p.hash, stepUp: { method: "passkey", response } }),
    ).rejects.toMatchObject({
      details: { passkey: "assertion_invalid" },
    });
    expect(await approvals(p.id)).toBe(0);
  });

  it("parallel approvals with one answer make one approval; the password path still works for a stale session", async () => {
    const p = await prepare(6_789);
    const options = await createApprovalOptions(reviewer, { proposalId: p.id, hash: p.hash });
    const response = reviewerKey.authenticate(options.challenge);
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () =>
        approveProposal(reviewer, { proposalId: p.id, hash: p.hash, stepUp: { method: "passkey", response } }),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await approvals(p.id)).toBe(1);

    const q = await prepare(6_790, john, US);
    const who = staffOf(US, "reviewer", 1);
    const stale = await actorFor(who.email, { authAgoSeconds: 60 * 60 });
    await approveProposal(stale, {
      proposalId: q.id,
      hash: q.hash,
      stepUp: { method: "password", password: who.password },
    });
    expect(await db().approval.findFirstOrThrow({ where: { proposalId: q.id } })).toMatchObject({
      authMethod: "password",
      passkeyCredentialId: null,
      passkeyAssertion: null,
    });
  });
});
