import "server-only";
import { randomBytes } from "node:crypto";
import { generateAuthenticationOptions, type PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/server";
import { effectiveStatus, proposalStatus, refusalCodeFor } from "@/lib/domain/proposal-state";
import { parseInput } from "@/lib/domain/validation";
import { AppError } from "@/lib/domain/outcome";
import { assertCan } from "@/lib/domain/permissions";
import { APPROVAL_NONCE_BYTES, deriveApprovalChallenge } from "@/lib/domain/passkey-challenge";
import { passkeyApprovalOptionsInput } from "@/lib/schemas/passkeys";
import { db } from "@/lib/server/db/client";
import { webAuthnRelyingParty } from "@/lib/server/env";
import type { Actor } from "@/lib/server/auth/actor";
import { CHALLENGE_TTL_MS } from "./challenges";

/**
 * Assertion options for approving one proposal with a passkey. The challenge is derived from the proposal's
 * id and current hash plus a fresh nonce (lib/domain/passkey-challenge.ts), so what the authenticator signs
 * commits to exactly that proposal. Only for a reviewer of the proposal's tenant who may still approve it,
 * who presents the hash they were shown, and who has passkeys; the challenge row is single use, 5 minutes.
 * The approval itself re-checks everything under the proposal's row lock.
 */
export async function createApprovalOptions(
  actor: Actor,
  raw: unknown,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  assertCan(actor.roles, "proposal:decide");
  const { proposalId, hash } = parseInput(passkeyApprovalOptionsInput, raw, "The passkey request is malformed.");
  const now = new Date();
  const p = await db().proposal.findFirst({
    where: { id: proposalId, tenantId: actor.tenantId },
    select: {
      id: true,
      hash: true,
      status: true,
      expiresAt: true,
      requestedByStaffId: true,
      approvals: { where: { approverId: actor.userId }, select: { id: true } },
    },
  });
  if (!p) throw new AppError("not_found", "No such proposal.");
  const status = effectiveStatus(p, now);
  if (status !== proposalStatus.pendingApproval)
    throw new AppError(refusalCodeFor(status), "This proposal can no longer be approved.", { status: p.status });
  if (hash !== p.hash) {
    throw new AppError(
      "invalid_arguments",
      "The hash you approved is not this proposal's hash. Reload the proposal and review it again.",
      {
        reason: "hash_mismatch",
      },
    );
  }
  if (p.requestedByStaffId === actor.userId)
    throw new AppError(
      "permission_denied",
      "You prepared or edited this proposal, so another reviewer must approve it.",
      { reason: "own_proposal" },
    );
  if (p.approvals.length > 0)
    throw new AppError("permission_denied", "You already approved this proposal; it needs a different reviewer.", {
      reason: "already_approved",
    });

  const credentials = await db().passkeyCredential.findMany({
    where: { staffUserId: actor.userId, tenantId: actor.tenantId, removedAt: null },
    select: { id: true, transports: true },
  });
  if (credentials.length === 0)
    throw new AppError("permission_denied", "You have no passkey yet; register one first.", { reason: "no_passkeys" });

  const nonce = randomBytes(APPROVAL_NONCE_BYTES).toString("base64url");
  const challenge = deriveApprovalChallenge({ proposalId: p.id, proposalHash: p.hash, nonce });
  await db().webAuthnChallenge.create({
    data: {
      staffUserId: actor.userId,
      purpose: "approve",
      proposalId: p.id,
      challenge,
      expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
    },
  });
  return generateAuthenticationOptions({
    rpID: webAuthnRelyingParty().rpID,
    challenge: new Uint8Array(Buffer.from(challenge, "base64url")),
    allowCredentials: credentials.map((c) => ({ id: c.id, transports: c.transports })),
    userVerification: "required",
    timeout: 120_000,
  });
}
