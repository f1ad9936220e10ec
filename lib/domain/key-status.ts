/** What an issued credential (agent key, integration key) is worth now: revoked wins; expired at its expiry instant. */
export type KeyStatus = "active" | "revoked" | "expired";

export function keyStatus(key: { revokedAt: Date | null; expiresAt: Date | null }, now: Date): KeyStatus {
  if (key.revokedAt) return "revoked";
  if (key.expiresAt && key.expiresAt <= now) return "expired";
  return "active";
}
