import "server-only";
import { randomUUID } from "node:crypto";
import { verifyRegistrationResponse } from "@simplewebauthn/server";
import { parseInput } from "@/lib/domain/validation";
import { AppError } from "@/lib/domain/outcome";
import { challengeOf } from "@/lib/domain/verify-passkey-approval";
import { verifyPasskeyRegistrationInput } from "@/lib/schemas/passkeys";
import { db } from "@/lib/server/db/client";
import { sqlOf } from "@/lib/server/db/sql";
import { webAuthnRelyingParty } from "@/lib/server/env";
import { recordStaffEvent } from "@/lib/server/audit/record-event";
import type { Actor } from "@/lib/server/auth/actor";
import { consumeChallenge } from "./challenges";
import { transaction } from "@/lib/server/db/transaction";

export type RegisteredPasskey = { id: string; name: string; createdAt: string };

/**
 * Verifies a registration answer and stores the passkey with its audit event, in one transaction.
 * The challenge it answers must be this user's, unused and unexpired; it is consumed first with a guarded
 * update, so it is spent even when verification then fails (one attempt per challenge).
 */
export async function registerPasskey(actor: Actor, raw: unknown): Promise<RegisteredPasskey> {
  const { response, name } = parseInput(verifyPasskeyRegistrationInput, raw, "The passkey registration is malformed.");
  const rp = webAuthnRelyingParty();
  const challenge = challengeOf(response.response.clientDataJSON);
  const now = new Date();
  const row = challenge
    ? await db().webAuthnChallenge.findFirst({
        where: { staffUserId: actor.userId, purpose: "register", challenge },
        select: { id: true },
      })
    : null;
  if (
    !row ||
    !(await transaction((tx) =>
      consumeChallenge(tx, { id: row.id, staffUserId: actor.userId, purpose: "register" }, now),
    ))
  ) {
    throw new AppError("permission_denied", "This passkey request expired or was already used. Start again.", {
      reason: "challenge_invalid",
    });
  }

  let info;
  try {
    const verification = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge!,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      requireUserVerification: true,
    });
    if (!verification.verified) throw new Error("not verified");
    info = verification.registrationInfo;
  } catch {
    throw new AppError("permission_denied", "The passkey could not be verified.", { reason: "registration_failed" });
  }

  const label = name ?? `Passkey ${now.toISOString().slice(0, 10)}`;
  const traceId = randomUUID().replace(/-/g, "");
  const created = await transaction(async (tx) => {
    const taken = await tx.passkeyCredential.findUnique({ where: { id: info.credential.id }, select: { id: true } });
    if (taken) return null;
    const credential = await tx.passkeyCredential.create({
      data: {
        id: info.credential.id,
        tenantId: actor.tenantId,
        staffUserId: actor.userId,
        publicKey: Buffer.from(info.credential.publicKey).toString("base64url"),
        counter: info.credential.counter,
        transports: info.credential.transports ?? [],
        name: label,
      },
    });
    await recordStaffEvent(sqlOf(tx), actor, {
      traceId,
      action: "auth:passkey_register",
      outcome: "ok",
      // Not "credentialId": the audit writer drops any field named like a credential.
      data: { passkeyId: credential.id, deviceType: info.credentialDeviceType, backedUp: info.credentialBackedUp },
      redaction: { clear: ["passkeyId", "deviceType", "backedUp"] },
    });
    return credential;
  });
  if (!created)
    throw new AppError("invalid_arguments", "This passkey is already registered.", { reason: "already_registered" });
  return { id: created.id, name: created.name, createdAt: created.createdAt.toISOString() };
}
