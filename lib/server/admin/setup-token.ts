import "server-only";
import { createHash, randomBytes } from "node:crypto";
import type { Tx } from "@/lib/server/db/client";
import { appBaseUrl } from "@/lib/server/env";

export const SETUP_LINK_HOURS = 24;

export const hashSetupToken = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * Issues a one-time setup link for a staff member: 256 random bits, stored only as their SHA-256, valid
 * 24 h. Older unused links of the same person are voided in the same transaction (one live link at a time).
 */
export async function issueSetupToken(
  tx: Tx,
  input: { tenantId: string; staffUserId: string; createdById: string | null; now?: Date },
) {
  const now = input.now ?? new Date();
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + SETUP_LINK_HOURS * 3600_000);
  await tx.staffSetupToken.updateMany({
    where: { staffUserId: input.staffUserId, tenantId: input.tenantId, usedAt: null },
    data: { usedAt: now },
  });
  await tx.staffSetupToken.create({
    data: {
      tenantId: input.tenantId,
      staffUserId: input.staffUserId,
      tokenHash: hashSetupToken(token),
      expiresAt,
      createdById: input.createdById,
    },
  });
  return { setupUrl: `${appBaseUrl()}/setup/${token}`, expiresAt };
}
