import "server-only";
import type { Tx } from "@/lib/server/db/client";

/** How long a registration or approval challenge may be answered. */
export const CHALLENGE_TTL_MS = 5 * 60_000;

export type ChallengePurpose = "register" | "approve";

/**
 * Marks one challenge row used, once: a guarded update (unused, unexpired, same user and purpose) whose
 * count must be 1. A second answer to the same challenge — a replay, two tabs, a double click — gets 0.
 */
export async function consumeChallenge(
  tx: Tx,
  where: { id: string; staffUserId: string; purpose: ChallengePurpose },
  now: Date,
): Promise<boolean> {
  const used = await tx.webAuthnChallenge.updateMany({
    where: { ...where, usedAt: null, expiresAt: { gt: now } },
    data: { usedAt: now },
  });
  return used.count === 1;
}
