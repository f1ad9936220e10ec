// Session lifetimes. The cookie's own expiry (next-auth `maxAge`) slides with activity; the
// absolute lifetime does not: it counts from the original authentication (the token's `authTime`, set
// only at sign-in), so a session kept alive by activity still ends.

/** Idle lifetime of the session cookie (next-auth `session.maxAge`). */
export const SESSION_IDLE_SECONDS = 8 * 60 * 60;
/** Absolute lifetime from the original sign-in, whatever the activity. */
export const SESSION_ABSOLUTE_SECONDS = 12 * 60 * 60;

export function isSessionWithinAbsoluteLifetime(authTimeSeconds: number | undefined, now: Date = new Date()): boolean {
  if (!authTimeSeconds || !Number.isFinite(authTimeSeconds)) return false;
  const age = now.getTime() / 1000 - authTimeSeconds;
  return age <= SESSION_ABSOLUTE_SECONDS && age > -300; // an authTime in the future (beyond clock skew) is not trusted
}
