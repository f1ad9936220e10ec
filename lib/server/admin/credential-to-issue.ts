import "server-only";
import { randomBytes } from "node:crypto";
import { AppError } from "@/lib/domain/outcome";
import type { Actor } from "@/lib/server/auth/actor";
import { requireStepUp } from "@/lib/server/auth/require-step-up";

/**
 * What every credential an admin issues (agent keys, integration keys) goes through before it is stored: an
 * optional expiry that must lie in the future, a fresh step-up, then the secret itself — `<kind>_` + 256 random
 * bits, base64url — shown to the admin once; the caller stores only its hash and `keyPrefix` (its first 12
 * characters, enough to recognise it in a list).
 */
export async function credentialToIssue(
  actor: Actor,
  input: { expiresAt?: string | null; stepUpPassword?: string },
  kind: "agk" | "igk",
  now: Date,
): Promise<{ key: string; keyPrefix: string; expiresAt: Date | null }> {
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt <= now)
    throw new AppError("invalid_arguments", "expiresAt: must be in the future.", {
      field: "expiresAt",
      problem: "past",
    });
  await requireStepUp(actor, input.stepUpPassword);
  const key = `${kind}_${randomBytes(32).toString("base64url")}`;
  return { key, keyPrefix: key.slice(0, 12), expiresAt };
}
